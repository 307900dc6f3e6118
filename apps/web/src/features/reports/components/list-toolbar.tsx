import { Group, Loader, Text } from '@mantine/core';
import { translate, useT } from '@/lib/i18n';

interface ListToolbarProps {
  /** What the list holds ("12+ messages"), or that it is loading; announced politely. */
  status: string;
  /** A background refresh is under way (not the first load). */
  refreshing: boolean;
  /** Shown after the status, e.g. a live indicator. */
  extra?: React.ReactNode;
  /** The list's own controls, on the right (filters, export). */
  children?: React.ReactNode;
}

/** The bar above a list: how many rows it holds, whether it is refreshing, and its controls. */
export function ListToolbar({ status, refreshing, extra, children }: ListToolbarProps) {
  const t = useT();
  return (
    <Group justify="space-between" px="md" py="sm" wrap="wrap" gap="sm">
      <Group gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {status}
        </Text>
        {refreshing && <Loader size="xs" aria-label={t('Refreshing')} />}
        {extra}
      </Group>
      {children}
    </Group>
  );
}

/**
 * "12 messages", "1 message", "50+ messages" (more pages to load): `one` and `many` are keys of the
 * locale files with a {{count}} placeholder (and any of `values`), translated when shown.
 */
export const countLabel = (
  count: number,
  hasMore: boolean,
  one: string,
  many: string,
  values: Record<string, string | number> = {},
) => translate(count === 1 ? one : many, { ...values, count: `${count}${hasMore ? '+' : ''}` });
