import { Fragment, type ReactNode } from 'react';
import { Alert, Badge, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { formatDateTime } from '@/lib/format';
import { useT, type Translate } from '@/lib/i18n';

/**
 * A translated sentence with React elements in it, so a translation can move them: `rich(t,
 * 'Credit {{amount}} to {{account}}?', { amount: <b>…</b>, account: <b>…</b> })`. Each
 * placeholder is filled with a marker that the translated text is split on again.
 */
export function rich(t: Translate, key: string, parts: Record<string, ReactNode>): ReactNode[] {
  const markers = Object.fromEntries(Object.keys(parts).map((name) => [name, `\uE000${name}\uE001`]));
  return t(key, markers)
    .split(/\uE000(\w+)\uE001/)
    .map((piece, i) => (i % 2 === 0 ? piece : <Fragment key={i}>{parts[piece]}</Fragment>));
}

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
  const t = useT();
  if (!props.hasMore) return null;
  return (
    <Center p="md">
      <Button variant="default" loading={props.loading} onClick={props.onMore}>
        {t('Show more ({{shown}} shown)', { shown: props.shown })}
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
  const t = useT();
  return (
    <Alert color="red" variant="light" m="md" title={t('Could not load this')}>
      <Group justify="space-between">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('Try again')}
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
  const t = useT();
  return (
    <Badge color={status === 'locked' ? 'red' : 'green'} variant="dot">
      {status === 'locked' ? t('Locked') : t('Active')}
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
