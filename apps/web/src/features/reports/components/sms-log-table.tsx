import { Skeleton, Table, Text, Tooltip } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { MessageDto } from '@wren/contracts';
import { formatMoney } from '@/lib/money';
import { formatDateTime, statusLabel } from '../format';
import { AwaitingReceipt } from './awaiting-receipt';
import { ScheduledFor } from './scheduled-for';
import { StatusBadge } from './status-badge';
import classes from './sms-log-table.module.css';

interface SmsLogTableProps {
  messages: MessageDto[];
  loading: boolean;
  selectedId: string | null;
  onOpen: (id: string) => void;
}

const COLUMNS = ['Date', 'Recipient', 'Sender', 'Message', 'Segments', 'Cost', 'Status'];

function SkeletonRows() {
  return Array.from({ length: 8 }, (_, row) => (
    <Table.Tr key={row}>
      {COLUMNS.map((c) => (
        <Table.Td key={c}>
          <Skeleton h={12} w={c === 'Message' ? '90%' : '70%'} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

/** The log as a table; a row opens the message's details (click, Enter or Space). */
export function SmsLogTable({ messages, loading, selectedId, onOpen }: SmsLogTableProps) {
  const t = useT();
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table highlightOnHover verticalSpacing="sm" aria-label={t('SMS log')} aria-busy={loading}>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th key={c} ta={c === 'Segments' || c === 'Cost' ? 'right' : undefined}>
                {t(c)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading ? (
            <SkeletonRows />
          ) : (
            messages.map((m) => (
              <Table.Tr
                key={m.id}
                className={classes.row}
                tabIndex={0}
                aria-label={t('Message to {{recipient}}, {{status}}. Open details', {
                  recipient: m.recipient,
                  status: statusLabel(m.status).toLowerCase(),
                })}
                data-selected={m.id === selectedId || undefined}
                onClick={() => onOpen(m.id)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    onOpen(m.id);
                  }
                }}
              >
                <Table.Td className={classes.nowrap}>
                  <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                </Table.Td>
                <Table.Td className={classes.nowrap}>{m.recipient}</Table.Td>
                <Table.Td>{m.sender}</Table.Td>
                <Table.Td maw={320}>
                  <Text size="sm" truncate>
                    {m.text}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{m.segments}</Table.Td>
                <Table.Td ta="right">{formatMoney(m.priceMinor, m.currency)}</Table.Td>
                <Table.Td>
                  {m.error ? (
                    <Tooltip label={m.error} withArrow>
                      <span>
                        <StatusBadge status={m.status} />
                      </span>
                    </Tooltip>
                  ) : (
                    <StatusBadge status={m.status} />
                  )}
                  <ScheduledFor message={m} mt={4} />
                  <AwaitingReceipt message={m} mt={4} maw={190} />
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
