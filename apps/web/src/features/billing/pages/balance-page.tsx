import { Alert, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { useBillingSummary } from '../api/billing';
import { BillingTabs } from '../components/billing-tabs';
import { LowBalanceCard } from '../components/low-balance-card';
import { TopUpCard, TopUpList } from '../components/top-up-card';
import { useT } from '@/lib/i18n';

/**
 * Billing → Balance (issue 47): the balance, adding credit (Stripe Checkout, or a request an
 * operator approves when no payment provider is set up), the account's top-ups and its
 * low-balance alert.
 */
export default function BalancePage() {
  const summary = useBillingSummary();
  const [search] = useSearchParams();
  const result = search.get('result');
  const shown = summary.data;
  const t = useT();

  return (
    <Stack gap="md">
      <BillingTabs />
      {result === 'success' && (
        <Alert color="teal" variant="light" title={t('Thank you')}>
          {t(
            'Your payment went through. The balance is credited as soon as Stripe confirms it, usually within a minute.',
          )}
        </Alert>
      )}
      {result === 'canceled' && (
        <Alert color="gray" variant="light">
          {t('The payment was canceled; nothing was charged.')}
        </Alert>
      )}
      {summary.isError && (
        <Alert color="red" variant="light" title={t('Could not load your billing')}>
          <Group justify="space-between">
            <Text size="sm">{messageOf(summary.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void summary.refetch()}>
              {t('Try again')}
            </Button>
          </Group>
        </Alert>
      )}
      {summary.isPending && (
        <Paper withBorder radius="md">
          <Center p="xl">
            <Loader size="sm" aria-label={t('Loading your balance')} />
          </Center>
        </Paper>
      )}
      {summary.data && (
        <>
          <Paper withBorder radius="md" p="md">
            <Text size="sm" c="dimmed">
              {t('Balance')}
            </Text>
            <Title order={2} size="h2" data-testid="billing-balance">
              {shown ? formatMoney(shown.balanceMinor, shown.currency) : '—'}
            </Title>
          </Paper>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <TopUpCard summary={summary.data} />
            <LowBalanceCard />
          </SimpleGrid>
          <TopUpList />
        </>
      )}
    </Stack>
  );
}
