import { Alert, Button, Group, Skeleton, Stack } from '@mantine/core';
import { useT } from '@/lib/i18n';

/** Placeholder rows while a table loads. */
export function TableSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <Stack gap="md" p="md" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Group key={i} gap="lg" wrap="nowrap">
          <Skeleton height={16} width={16} radius="sm" />
          <Skeleton height={16} width="22%" />
          <Skeleton height={16} width="26%" />
          <Skeleton height={16} width="30%" />
        </Group>
      ))}
    </Stack>
  );
}

export function LoadError({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string;
  onRetry: () => void;
}) {
  const t = useT();
  return (
    <Alert color="red" variant="light" title={title} m="md" role="alert">
      <Stack gap="sm" align="flex-start">
        {message}
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('Try again')}
        </Button>
      </Stack>
    </Alert>
  );
}
