import { Anchor, Badge, Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { MessageDto } from '@wren/contracts';
import { Link } from 'react-router';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { formatDateTime, STATUS_COLORS, statusLabel } from '../format';
import { useT } from '@/lib/i18n';

/** The latest messages with their current status; a link to the full SMS log. */
export function RecentActivityCard({ messages }: { messages: MessageDto[] | undefined }) {
  const t = useT();
  return (
    <Card withBorder radius="md" padding="lg" data-testid="recent-activity">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('Recent activity')}
        </Title>
        <Anchor component={Link} to={paths.reports.smsLog.getHref()} size="sm">
          {t('View SMS log')}
        </Anchor>
      </Group>
      {!messages ? (
        <Stack gap="sm">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={18} />
          ))}
        </Stack>
      ) : (
        <ResponsiveTable
          minWidth={560}
          verticalSpacing="sm"
          highlightOnHover
          aria-label={t('Recent messages')}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Recipient')}</Table.Th>
              <Table.Th>{t('Status')}</Table.Th>
              <Table.Th>{t('Message')}</Table.Th>
              <Table.Th ta="right">{t('Created')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {messages.map((m) => (
              <Table.Tr key={m.id} data-message-id={m.id}>
                <Table.Td data-label={t('Recipient')}>
                  <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                    {m.recipient}
                  </Text>
                </Table.Td>
                <Table.Td data-label={t('Status')}>
                  <Badge
                    miw="max-content"
                    color={STATUS_COLORS[m.status]}
                    variant={m.status === 'canceled' ? 'outline' : 'light'}
                    data-status={m.status}
                  >
                    {statusLabel(m.status)}
                  </Badge>
                </Table.Td>
                <Table.Td data-label={t('Message')} maw={360}>
                  <Text size="sm" truncate title={m.text}>
                    {m.text}
                  </Text>
                </Table.Td>
                <Table.Td data-label={t('Created')} ta="right">
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(m.createdAt)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
      )}
    </Card>
  );
}
