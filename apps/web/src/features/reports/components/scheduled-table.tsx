import { Button, Skeleton, Table, Text, VisuallyHidden } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { MessageDto } from '@wren/contracts';
import { useCan } from '@/lib/account-role';
import { formatMoney } from '@/lib/money';
import { formatDateTime, formatInZone } from '../format';
import { relativeTime } from '../relative-time';

/** A scheduled message; `timezone` is the zone it was scheduled in, when the server sends it. */
export type ScheduledMessage = MessageDto & { timezone?: string | null };

interface ScheduledTableProps {
  messages: ScheduledMessage[];
  loading: boolean;
  /** The zone to show times in when a message does not carry its own. */
  timezone: string;
  onCancel: (message: ScheduledMessage) => void;
}

const COLUMNS = ['Scheduled for', 'Recipient', 'Sender', 'Message', 'Cost', 'Created', ''];

/** Scheduled messages, soonest first, each with a Cancel action. */
export function ScheduledTable({ messages, loading, timezone, onCancel }: ScheduledTableProps) {
  // Cancel is messages:send's: a role that only reads (analyst) has no actions column.
  const canSend = useCan('messages:send');
  const t = useT();
  const columns = canSend ? COLUMNS : COLUMNS.filter((c) => c !== '');
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" aria-label={t('Scheduled messages')} aria-busy={loading}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c, i) => (
              <Table.Th key={i} ta={c === 'Cost' ? 'right' : undefined}>
                {c ? t(c) : <VisuallyHidden>{t('Actions')}</VisuallyHidden>}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading
            ? Array.from({ length: 4 }, (_, row) => (
                <Table.Tr key={row}>
                  {columns.map((c, i) => (
                    <Table.Td key={i}>
                      <Skeleton h={12} w={c === 'Message' ? '90%' : '70%'} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            : messages.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td>
                    {m.scheduledAt && (
                      <>
                        <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
                          {formatInZone(m.scheduledAt, m.timezone || timezone)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {relativeTime(m.scheduledAt)}
                        </Text>
                      </>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{m.recipient}</Table.Td>
                  <Table.Td>{m.sender}</Table.Td>
                  <Table.Td maw={280}>
                    <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                      {m.text}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(m.priceMinor, m.currency)}</Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(m.createdAt)}
                    </Text>
                  </Table.Td>
                  {canSend && (
                    <Table.Td ta="right">
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => onCancel(m)}
                        aria-label={t('Cancel the message to {{recipient}}', { recipient: m.recipient })}
                      >
                        {t('Cancel')}
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
