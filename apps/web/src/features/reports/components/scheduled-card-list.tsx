import { Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { Can } from '@/components/can';
import { formatMoney } from '@/lib/money';
import { formatInZone } from '../format';
import { relativeTime } from '../relative-time';
import type { ScheduledMessage } from './scheduled-table';

interface ScheduledCardListProps {
  messages: ScheduledMessage[];
  loading: boolean;
  timezone: string;
  onCancel: (message: ScheduledMessage) => void;
}

/** Scheduled messages on a phone: one card each, with its Cancel action. */
export function ScheduledCardList({ messages, loading, timezone, onCancel }: ScheduledCardListProps) {
  const t = useT();
  if (loading) {
    return (
      <Stack gap="xs" p="sm">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} h={110} radius="md" />
        ))}
      </Stack>
    );
  }
  return (
    <Stack
      gap="xs"
      p="sm"
      component="ul"
      aria-label={t('Scheduled messages')}
      style={{ listStyle: 'none', margin: 0 }}
    >
      {messages.map((m) => (
        <Paper key={m.id} component="li" withBorder radius="md" p="sm">
          {m.scheduledAt && (
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <div>
                <Text size="sm" fw={600}>
                  {formatInZone(m.scheduledAt, m.timezone || timezone)}
                </Text>
                <Text size="xs" c="dimmed">
                  {relativeTime(m.scheduledAt)}
                </Text>
              </div>
              <Text size="sm">{formatMoney(m.priceMinor, m.currency)}</Text>
            </Group>
          )}
          <Text size="sm" mt={6}>
            {t('To')} <b>{m.recipient}</b> {t('from {{sender}}', { sender: m.sender })}
          </Text>
          <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {m.text}
          </Text>
          <Can permission="messages:send">
            <Group justify="flex-end" mt="xs">
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => onCancel(m)}
                aria-label={t('Cancel the message to {{recipient}}', { recipient: m.recipient })}
              >
                {t('Cancel')}
              </Button>
            </Group>
          </Can>
        </Paper>
      ))}
    </Stack>
  );
}
