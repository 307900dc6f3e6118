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

/** One sub-account: balance and status, transfers, prices, usage and margin, lock. */
export default function SubAccountPage() {
  const { id = '' } = useParams();
  const account = useSubAccount(id);
  if (account.isPending) return <Loader size="sm" aria-label="Loading the sub-account" />;
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
              {a.pendingOwnerEmail ? `Owner invited: ${a.pendingOwnerEmail}` : `${a.members} member(s)`}
            </Text>
          </div>
          <Group>
            <Badge color={a.status === 'locked' ? 'red' : 'green'} variant="light" size="lg">
              {a.status === 'locked' ? 'Locked' : 'Active'}
            </Badge>
            <div>
              <Text size="xs" c="dimmed">
                Balance
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
          Last transfers
        </Title>
        {a.transfers.length === 0 ? (
          <Text size="sm" c="dimmed">
            No transfers yet.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={300}>
            <Table aria-label="Last transfers">
              <Table.Tbody>
                {a.transfers.map((t) => (
                  <Table.Tr key={t.reference}>
                    <Table.Td>{formatDateTime(t.createdAt)}</Table.Td>
                    <Table.Td>{t.amountMinor > 0 ? 'Added' : 'Taken back'}</Table.Td>
                    <Table.Td ta="right">{formatMoney(Math.abs(t.amountMinor), a.currency)}</Table.Td>
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
