import { Alert, Button, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { HttpError } from '@/lib/http/http-error';

/** A campaign that could not be loaded: not found (or another account's), or the error. */
export function CampaignLoadError({ error }: { error: Error }) {
  const t = useT();
  const gone = error instanceof HttpError && (error.status === 404 || error.status === 400);
  return (
    <Alert
      color={gone ? 'gray' : 'red'}
      variant="light"
      title={gone ? t('Campaign not found') : t('Could not load this campaign')}
    >
      {gone ? t('This campaign does not exist, or it belongs to another account.') : error.message}
      <Button
        component={Link}
        to={paths.reports.campaigns.getHref()}
        size="xs"
        variant="light"
        mt="sm"
        display="block"
      >
        {t('Back to the campaign report')}
      </Button>
    </Alert>
  );
}

/** The detail page's shape while the campaign loads. */
export function CampaignDetailSkeleton() {
  return (
    <Stack>
      <Skeleton h={60} />
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} h={80} />
        ))}
      </SimpleGrid>
      <Skeleton h={240} />
    </Stack>
  );
}
