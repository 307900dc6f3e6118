import { Button, EmptyState, Paper } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { IconKey } from './icons';

/** A key that is not there: no such id in the account (404), or an address whose id is not one (400). */
export const isMissingKey = (error: unknown) =>
  error instanceof HttpError && (error.status === 404 || error.status === 400);

/**
 * What a key's page (view, edit, report) shows when its key could not be loaded: "does not exist"
 * for an unknown id, else `title` ("Could not load this API key") and the error; both with the way
 * back to the list.
 */
export function KeyLoadError({ error, title }: { error: unknown; title?: string }) {
  const t = useT();
  const missing = isMissingKey(error);
  return (
    <Paper withBorder radius="md" p="xl" maw={760}>
      <EmptyState
        variant="light"
        size="lg"
        icon={<IconKey size={32} />}
        title={
          missing
            ? t('This API key does not exist (or was deleted)')
            : (title ?? t('Could not load this API key'))
        }
        description={
          missing ? t('Check the address, or open the key from your list of API keys.') : messageOf(error)
        }
        py="xl"
        data-testid="api-key-load-error"
      >
        <EmptyState.Actions>
          <Button component={Link} to={paths.api.list.getHref()} variant="default">
            {t('Back to API keys')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}
