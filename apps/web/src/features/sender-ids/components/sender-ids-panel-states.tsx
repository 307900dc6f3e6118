import { Alert, Button, EmptyState, Group, Skeleton, Stack } from '@mantine/core';
import { Can } from '@/components/can';
import { IconId } from '@/components/icons';
import { IconPlus } from './icons';
import { useT } from '@/lib/i18n';

/** Placeholder rows while the list loads. */
export function SenderIdsSkeleton() {
  const t = useT();
  return (
    <Stack gap="md" p="md" aria-busy="true" aria-label={t('Loading sender IDs')}>
      {[0, 1, 2].map((i) => (
        <Group key={i} gap="lg" wrap="nowrap">
          <Skeleton height={18} width="18%" />
          <Skeleton height={18} width="14%" radius="xl" />
          <Skeleton height={18} width="40%" />
          <Skeleton height={18} width="12%" />
        </Group>
      ))}
    </Stack>
  );
}

export function SenderIdsEmpty({ onRequest }: { onRequest: () => void }) {
  const t = useT();
  return (
    <EmptyState
      variant="light"
      size="lg"
      py={48}
      icon={<IconId size={32} />}
      title={t('No sender IDs yet')}
      description={t(
        'A sender ID is the name or number your recipients see. Request one to send under your own brand.',
      )}
    >
      <Can permission="sender-ids:manage">
        <EmptyState.Actions>
          <Button leftSection={<IconPlus />} onClick={onRequest}>
            {t('Request sender ID')}
          </Button>
        </EmptyState.Actions>
      </Can>
    </EmptyState>
  );
}

export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useT();
  return (
    <Alert color="red" variant="light" title={t('The list could not be loaded')} m="md" role="alert">
      <Stack gap="sm" align="flex-start">
        {message}
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('Try again')}
        </Button>
      </Stack>
    </Alert>
  );
}
