import { Badge, Group, Skeleton, Table, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { InboundMessageDto } from '@wren/contracts';
import { formatDateTime } from '../format';

interface InboundTableProps {
  messages: InboundMessageDto[];
  loading: boolean;
}

const COLUMNS = ['Received', 'From', 'To', 'Message'];

function SkeletonRows() {
  return Array.from({ length: 6 }, (_, row) => (
    <Table.Tr key={row}>
      {COLUMNS.map((c) => (
        <Table.Td key={c}>
          <Skeleton h={12} w={c === 'Message' ? '90%' : '70%'} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

/** Inbound SMS, newest first; an opt-out/opt-in keyword is marked. */
export function InboundTable({ messages, loading }: InboundTableProps) {
  const t = useT();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" aria-label={t('Inbox')} aria-busy={loading}>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th key={c}>{t(c)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading ? (
            <SkeletonRows />
          ) : (
            messages.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <time dateTime={m.receivedAt}>{formatDateTime(m.receivedAt)}</time>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{m.from}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{m.to}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                      {m.text}
                    </Text>
                    {m.keyword && (
                      <Badge
                        size="sm"
                        variant="light"
                        color={
                          m.keyword === 'START' || m.keyword === 'UNSTOP' || m.keyword === 'YES'
                            ? 'teal'
                            : 'red'
                        }
                      >
                        {m.keyword}
                      </Badge>
                    )}
                    {m.parts > 1 && (
                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                        {t('{{count}} parts', { count: m.parts })}
                      </Text>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
