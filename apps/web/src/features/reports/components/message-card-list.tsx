import { Group, Paper, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { MessageDto } from '@wren/contracts';
import { formatMoney } from '@/lib/money';
import { formatDateTime, statusLabel } from '../format';
import { AwaitingReceipt } from './awaiting-receipt';
import { ScheduledFor } from './scheduled-for';
import { StatusBadge } from './status-badge';
import classes from './message-card-list.module.css';

interface MessageCardListProps {
  messages: MessageDto[];
  loading: boolean;
  selectedId: string | null;
  onOpen: (id: string) => void;
}

/** The log on a phone: one card per message; a card opens the message's details. */
export function MessageCardList({ messages, loading, selectedId, onOpen }: MessageCardListProps) {
  const t = useT();
  if (loading) {
    return (
      <Stack gap="xs" p="sm">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} h={84} radius="md" />
        ))}
      </Stack>
    );
  }
  return (
    <Stack gap="xs" p="sm" component="ul" className={classes.list} aria-label={t('SMS log')}>
      {messages.map((m) => (
        <li key={m.id}>
          <UnstyledButton
            className={classes.card}
            onClick={() => onOpen(m.id)}
            aria-label={t('Message to {{recipient}}, {{status}}. Open details', {
              recipient: m.recipient,
              status: statusLabel(m.status).toLowerCase(),
            })}
            aria-haspopup="dialog"
            data-selected={m.id === selectedId || undefined}
          >
            <Paper withBorder radius="md" p="sm" className={classes.paper}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text fw={600} size="sm">
                  {m.recipient}
                </Text>
                <StatusBadge status={m.status} />
              </Group>
              <ScheduledFor message={m} ta="right" />
              <AwaitingReceipt message={m} ta="right" />
              <Text size="sm" lineClamp={2} mt={4} style={{ overflowWrap: 'anywhere' }}>
                {m.text}
              </Text>
              <Group justify="space-between" mt={6} gap="xs">
                <Text size="xs" c="dimmed">
                  {formatDateTime(m.createdAt)} · {m.sender}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('{{count}} seg · {{cost}}', {
                    count: m.segments,
                    cost: formatMoney(m.priceMinor, m.currency),
                  })}
                </Text>
              </Group>
            </Paper>
          </UnstyledButton>
        </li>
      ))}
    </Stack>
  );
}
