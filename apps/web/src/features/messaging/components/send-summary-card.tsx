import { Alert, Card, Divider, Skeleton, Stack, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { Balance } from '../api/get-balance';
import { formatMoney } from '@/lib/money';
import { SummaryRow as Row } from './summary-row';
import type { CostEstimate } from '../cost';

interface SendSummaryCardProps {
  balance: Balance | undefined;
  balanceError: boolean;
  /** False for a role without billing:read: the card shows the cost only. */
  showBalance?: boolean;
  cost: CostEstimate | null;
  recipients: number;
  segments: number;
}

/** The balance, and what this send will cost. */
export function SendSummaryCard({
  balance,
  balanceError,
  showBalance = true,
  cost,
  recipients,
  segments,
}: SendSummaryCardProps) {
  const t = useT();
  const short = balance && cost && cost.totalMinor > balance.balanceMinor;
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="xs">
        <Text size="xs" tt="uppercase" fw={700} c="dimmed">
          {showBalance ? t('Balance') : t('This send')}
        </Text>
        {!showBalance ? null : balance ? (
          <Text fz={28} fw={700} lh={1.1} data-testid="balance">
            {formatMoney(balance.balanceMinor, balance.currency)}
          </Text>
        ) : balanceError ? (
          <Text size="sm" c="red">
            {t('Could not load your balance.')}
          </Text>
        ) : (
          <Skeleton h={31} w={120} />
        )}
        {showBalance && <Divider my={4} />}
        <Row label={t('Recipients')} value={recipients} />
        <Row label={t('Segments per message')} value={segments} />
        <Row label={t('Total segments')} value={recipients * segments} />
        <Row
          label={t('Estimated cost')}
          testId="estimated-cost"
          value={
            cost ? formatMoney(cost.totalMinor, cost.currency) : <Skeleton h={16} w={60} component="span" />
          }
        />
        {balance && cost && (
          <Row
            label={t('Balance after')}
            value={formatMoney(balance.balanceMinor - cost.totalMinor, balance.currency)}
          />
        )}
        {short && (
          <Alert color="red" variant="light" p="xs">
            <Text size="sm">
              {t('This send costs more than your balance. Top up or send to fewer recipients.')}
            </Text>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
