import { Alert, Badge, Card, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { formatMoney } from '@/lib/money';
import { useSubAccount } from '../api/sub-accounts';
import { LockCard } from '../components/lock-card';
import { PricingCard } from '../components/pricing-card';
import { StatementCard } from '../components/statement-card';
import { TransferCard } from '../components/transfer-card';
import { UsageCard } from '../components/usage-card';
import { formatDateTime } from '@/lib/format';
import { useT } from '@/lib/i18n';

/** One sub-account: balance and status, transfers, prices, usage and margin, lock. */
export default function SubAccountPage() {
  const { id = '' } = useParams();
  const account = useSubAccount(id);
  const t = useT();
  if (account.isPending) return <Loader size="sm" aria-label={t('Loading the sub-account')} />;
  if (account.isError) return <Alert color="red">{account.error.message}</Alert>;
  const a = account.data;
  return (
    <Stack>
      <Card withBorder padding="md">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} size="h3">
              {a.name}
            </Title>
            <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {a.pendingOwnerEmail
                ? t('Owner invited: {{email}}', { email: a.pendingOwnerEmail })
                : t('{{count}} member(s)', { count: a.members })}
            </Text>
          </div>
          <Group>
            <Badge color={a.status === 'locked' ? 'red' : 'green'} variant="light" size="lg">
              {a.status === 'locked' ? t('Locked') : t('Active')}
            </Badge>
            <div>
              <Text size="xs" c="dimmed">
                {t('Balance')}
              </Text>
              <Text fw={700} size="xl" data-testid="sub-account-balance">
                {formatMoney(a.balanceMinor, a.currency)}
              </Text>
            </div>
          </Group>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <TransferCard account={a} />
        <LockCard account={a} />
      </SimpleGrid>
      <UsageCard id={a.id} />
      <PricingCard id={a.id} />
      <StatementCard id={a.id} name={a.name} />
      <Card withBorder padding="md">
        <Title order={2} size="h4" mb="sm">
          {t('Last transfers')}
        </Title>
        {a.transfers.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('No transfers yet.')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={300}>
            <Table aria-label={t('Last transfers')}>
              <Table.Tbody>
                {a.transfers.map((tr) => (
                  <Table.Tr key={tr.reference}>
                    <Table.Td>{formatDateTime(tr.createdAt)}</Table.Td>
                    <Table.Td>{tr.amountMinor > 0 ? t('Added') : t('Taken back')}</Table.Td>
                    <Table.Td ta="right">{formatMoney(Math.abs(tr.amountMinor), a.currency)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
