import { Alert, Button } from '@mantine/core';
import { useT } from '@/lib/i18n';

interface ListLoadErrorProps {
  title: string;
  error: Error;
  onRetry: () => void;
}

/** A list that could not be loaded: what went wrong, and a way to try again. */
export function ListLoadError({ title, error, onRetry }: ListLoadErrorProps) {
  const t = useT();
  return (
    <Alert color="red" variant="light" m="md" title={title}>
      {error.message}
      <Button size="xs" variant="light" color="red" mt="sm" display="block" onClick={onRetry}>
        {t('Try again')}
      </Button>
    </Alert>
  );
}
