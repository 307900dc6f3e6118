import { Button, EmptyState, Paper } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

/** Shown for an unknown or deleted service id (or another account's): the API said 404 or 400. */
export function ServiceNotFound() {
  return (
    <Paper withBorder radius="md">
      <EmptyState
        variant="light"
        size="lg"
        py={48}
        title="OTP service not found"
        description="It may have been deleted, or the link is wrong."
      >
        <EmptyState.Actions>
          <Button component={Link} to={paths.otp.list.getHref()} variant="default">
            Back to OTP services
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
