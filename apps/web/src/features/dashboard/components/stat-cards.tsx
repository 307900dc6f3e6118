import { SimpleGrid } from '@mantine/core';
import { translate, useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import type { LiveFigures } from '../api/use-live-figures';
import { formatCount, formatRate, messagesCount, performanceTotals, type PerformanceTotals } from '../format';
import { IconAlert, IconCheck, IconMessage, IconWallet } from './dashboard-icons';
import { StatCard } from './stat-card';

const deliveryHint = ({ sent, delivered }: PerformanceTotals) =>
  sent
    ? translate('Last 30 days: {{delivered}} of {{sent}}', {
        delivered: formatCount(delivered),
        sent: formatCount(sent),
      })
    : translate('Nothing sent in 30 days');

/** Balance, today's messages, and the 30-day delivery rate and failures. */
export function StatCards({
  figures,
  sees,
}: {
  figures: LiveFigures;
  /** The figures the member's role may see (issue 39): the others' cards are left out. */
  sees: { balance: boolean; delivery: boolean };
}) {
  const t = useT();
  const { balance, deliveryStatus, performance } = figures;
  const today = deliveryStatus?.periods.today;
  const totals = performance && performanceTotals(performance);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
      {sees.balance && (
        <StatCard
          label={t('Balance')}
          value={balance && formatMoney(balance.balanceMinor, balance.currency)}
          hint={t('Available for sending')}
          icon={<IconWallet size={22} />}
          color="indigo"
          testId="balance"
        />
      )}
      {sees.delivery && (
        <>
          <StatCard
            label={t('Messages today')}
            value={today && formatCount(messagesCount(today))}
            hint={
              today ? t('{{count}} delivered so far', { count: formatCount(today.delivered) }) : undefined
            }
            icon={<IconMessage size={22} />}
            color="blue"
            testId="messages-today"
          />
          <StatCard
            label={t('Delivery rate')}
            value={totals && formatRate(totals.deliveryRate)}
            hint={totals && deliveryHint(totals)}
            icon={<IconCheck size={22} />}
            color="teal"
            testId="delivery-rate"
          />
          <StatCard
            label={t('Failed')}
            value={totals && formatCount(totals.failed)}
            hint={t('In the last 30 days')}
            icon={<IconAlert size={22} />}
            color="red"
            testId="failed"
          />
        </>
      )}
    </SimpleGrid>
  );
}
