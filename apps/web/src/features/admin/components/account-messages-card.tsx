import { useState } from 'react';
import { Badge, Code, Group, Modal, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { microsToCost, type AdminAccountDetail, type OperatorMessageDto } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { useOperatorLog, useOperatorMessage } from '../api/operator-log';
import { ErrorBlock, LoadingBlock, LoadMore, rich, SectionHeader, When } from './common';

/** Millionths of the unit, as a carrier's price is written ("0.0042"), with the currency. */
const carrierCost = (micros: number, currency: string) => `${microsToCost(micros)} ${currency}`;

/** The account's messages as operators see them: where each went and what the carrier charged. */
export function AccountMessagesCard({ account }: { account: AdminAccountDetail }) {
  const t = useT();
  const [recipient, setRecipient] = useState('');
  const [search] = useDebouncedValue(recipient.trim(), 300);
  const log = useOperatorLog(account.id, search);
  const items = log.data?.pages.flatMap((p) => p.items) ?? [];
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Paper withBorder radius="md">
      <SectionHeader
        title={t('SMS log')}
        hint={t(
          "Each message with the connection that took it, the route that chose it and the carrier's cost",
        )}
      >
        <TextInput
          label={t('Recipient')}
          placeholder="+4477…"
          value={recipient}
          onChange={(e) => setRecipient(e.currentTarget.value)}
          aria-label={t('Search messages by recipient')}
        />
      </SectionHeader>
      {log.isPending && <LoadingBlock label={t('Loading the messages…')} />}
      {log.isError && <ErrorBlock message={messageOf(log.error)} onRetry={() => void log.refetch()} />}
      {log.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed" p="md">
          {search ? t('No messages to {{recipient}}.', { recipient: search }) : t('No messages yet.')}
        </Text>
      )}
      {items.length > 0 && (
        <ResponsiveTable minWidth={860} verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Date')}</Table.Th>
              <Table.Th>{t('Recipient')}</Table.Th>
              <Table.Th>{t('Status')}</Table.Th>
              <Table.Th ta="right">{t('Price')}</Table.Th>
              <Table.Th>{t('Connection')}</Table.Th>
              <Table.Th>{t('Route')}</Table.Th>
              <Table.Th ta="right">{t('Carrier cost')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((m) => (
              <Table.Tr
                key={m.id}
                style={{ cursor: 'pointer' }}
                tabIndex={0}
                aria-label={t('Message to {{recipient}}: open its history', { recipient: m.recipient })}
                onClick={() => setOpen(m.id)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    setOpen(m.id);
                  }
                }}
              >
                <Table.Td data-label={t('Date')}>
                  <When at={m.createdAt} />
                </Table.Td>
                <Table.Td data-label={t('Recipient')} ff="monospace">
                  {m.recipient}
                </Table.Td>
                <Table.Td data-label={t('Status')}>
                  <Badge
                    variant="light"
                    color={m.status === 'delivered' ? 'green' : 'gray'}
                    data-status={m.status}
                  >
                    {m.status}
                  </Badge>
                </Table.Td>
                <Table.Td data-label={t('Price')} ta="right" ff="monospace">
                  {formatMoney(m.priceMinor, m.currency)}
                </Table.Td>
                <Table.Td data-label={t('Connection')}>{m.connection ?? '—'}</Table.Td>
                <Table.Td data-label={t('Route')}>
                  {m.route ? `${m.route.name} (${m.route.strategy})` : '—'}
                </Table.Td>
                <Table.Td data-label={t('Carrier cost')} ta="right" ff="monospace">
                  {m.route ? carrierCost(m.route.totalCostMicros, m.currency) : '—'}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
      )}
      <LoadMore
        hasMore={!!log.hasNextPage}
        loading={log.isFetchingNextPage}
        onMore={() => void log.fetchNextPage()}
        shown={items.length}
      />
      <MessageModal accountId={account.id} id={open} onClose={() => setOpen(null)} />
    </Paper>
  );
}

function MessageModal(props: { accountId: string; id: string | null; onClose: () => void }) {
  const t = useT();
  const detail = useOperatorMessage(props.accountId, props.id);
  const m: OperatorMessageDto | undefined = detail.data?.message;
  return (
    <Modal opened={props.id !== null} onClose={props.onClose} title={t('Message history')} size="lg">
      {detail.isPending && <LoadingBlock label={t('Loading the message…')} />}
      {detail.isError && (
        <ErrorBlock message={messageOf(detail.error)} onRetry={() => void detail.refetch()} />
      )}
      {m && (
        <Stack gap="xs">
          <Group gap="xs">
            <Text size="sm">
              {rich(t, 'To {{recipient}} from {{sender}}', {
                recipient: <b>{m.recipient}</b>,
                sender: <b>{m.sender}</b>,
              })}
            </Text>
            <Badge variant="light" size="sm">
              {m.status}
            </Badge>
          </Group>
          <Text size="sm">
            {m.connection ? t('Connection {{name}}', { name: m.connection }) : t('Not sent yet')}
            {m.route
              ? ` · ${t('route {{name}} ({{strategy}}), {{cost}} a segment, {{total}} in all', {
                  name: m.route.name,
                  strategy: m.route.strategy,
                  cost: m.route.cost,
                  total: carrierCost(m.route.totalCostMicros, m.currency),
                })}`
              : ''}
          </Text>
          <Table verticalSpacing={4} fz="sm">
            <Table.Tbody>
              {(detail.data?.events ?? []).map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <When at={e.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {e.status}
                    </Text>
                    {e.detail && <Text size="sm">{e.detail}</Text>}
                    {e.raw && (
                      <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                        {e.raw}
                      </Code>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Modal>
  );
}
