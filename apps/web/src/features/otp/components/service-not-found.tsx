import { Button, EmptyState, Paper } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';

/** Shown for an unknown or deleted service id (or another account's): the API said 404 or 400. */
export function ServiceNotFound() {
  const t = useT();
  return (
    <Paper withBorder radius="md">
      <EmptyState
        variant="light"
        size="lg"
        py={48}
        title={t('OTP service not found')}
        description={t('It may have been deleted, or the link is wrong.')}
      >
        <EmptyState.Actions>
          <Button component={Link} to={paths.otp.list.getHref()} variant="default">
            {t('Back to OTP services')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}

export const isMissing = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'status' in error &&
  [400, 404].includes(Number(error.status));
