import type { ReactNode } from 'react';
import { Alert, Badge, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { formatDateTime } from '@/lib/format';

/** A page's heading row: title, a line of context, and actions on the right. */
export function SectionHeader({
  title,
  hint,
  children,
}: {
  title: string;
  hint?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Group justify="space-between" p="md" wrap="wrap" gap="sm">
      <div>
        <Title order={2} size="h4">
          {title}
        </Title>
        {hint && (
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        )}
      </div>
      {children && <Group gap="sm">{children}</Group>}
    </Group>
  );
}

export function LoadMore(props: { hasMore: boolean; loading: boolean; onMore: () => void; shown: number }) {
  if (!props.hasMore) return null;
  return (
    <Center p="md">
      <Button variant="default" loading={props.loading} onClick={props.onMore}>
        Show more ({props.shown} shown)
      </Button>
    </Center>
  );
}

export function LoadingBlock({ label }: { label: string }) {
  return (
    <Center p="xl">
      <Stack align="center" gap="xs">
        <Loader size="sm" aria-label={label} />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

export function ErrorBlock({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Alert color="red" variant="light" m="md" title="Could not load this">
      <Group justify="space-between">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}

export function EmptyBlock({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap={4} p="xl">
      <Text fw={600}>{title}</Text>
      {children && (
        <Text size="sm" c="dimmed" ta="center" maw={460}>
          {children}
        </Text>
      )}
    </Stack>
  );
}

export function AccountStatusBadge({ status }: { status: 'active' | 'locked' }) {
  return (
    <Badge color={status === 'locked' ? 'red' : 'green'} variant="dot">
      {status === 'locked' ? 'Locked' : 'Active'}
    </Badge>
  );
}

/** "3 Mar 2026, 14:05" in the browser's zone, with the exact ISO time as a tooltip title. */
export function When({ at, empty = '—' }: { at: string | null | undefined; empty?: string }) {
  if (!at) return <>{empty}</>;
  return <span title={at}>{formatDateTime(at)}</span>;
}

/** 1536 → "1.5 KB". */
export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}
