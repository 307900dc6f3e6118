import { useState } from 'react';
import { Alert, Button, Card, Center, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { MONTH_PATTERN } from '@wren/contracts';
import { Can } from '@/components/can';
import { messageOf } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { downloadStatement, useStatement, useStatementMonths } from '../api/statements';
import { BillingTabs } from '../components/billing-tabs';
import { StatementEntries } from '../components/statement-entries';
import { StatementSummary } from '../components/statement-summary';
import { StatementUsage } from '../components/statement-usage';
import { monthTitle } from '@/lib/month-title';
import { formatNumber } from '@/lib/format';
import { useT } from '@/lib/i18n';

function Downloads({ month }: { month: string }) {
  const t = useT();
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const download = async (kind: 'csv' | 'pdf') => {
    setBusy(kind);
    try {
      await downloadStatement(month, kind);
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Can permission="billing:read">
      <Group gap="sm">
        <Button variant="default" loading={busy === 'csv'} onClick={() => void download('csv')}>
          {t('Download CSV')}
        </Button>
        <Button variant="default" loading={busy === 'pdf'} onClick={() => void download('pdf')}>
          {t('Download PDF')}
        </Button>
      </Group>
    </Can>
  );
}

/**
 * Billing → Statements (issue 39 item 5): pick a month with activity and see its statement (the
 * balances, totals by kind, every entry with its running balance, usage by country), as on screen
 * and as CSV and PDF. The month is in the address (?month=YYYY-MM), so a statement can be linked.
 */
export default function StatementsPage() {
  const t = useT();
  const [search, setSearch] = useSearchParams();
  const months = useStatementMonths();
  const asked = search.get('month');
  const month = asked && MONTH_PATTERN.test(asked) ? asked : (months.data?.items[0]?.month ?? null);
  const statement = useStatement(month);
  const options = (months.data?.items ?? []).map((m) => ({
    value: m.month,
    label: m.entries
      ? `${monthTitle(m.month)} · ${m.entries === 1 ? t('{{count}} entry', { count: formatNumber(m.entries) }) : t('{{count}} entries', { count: formatNumber(m.entries) })}`
      : monthTitle(m.month),
  }));
  if (month && !options.some((o) => o.value === month))
    options.unshift({ value: month, label: monthTitle(month) });
  const s = statement.data;

  return (
    <Stack gap="md">
      <BillingTabs />
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Select
          label={t('Month')}
          data={options}
          value={month}
          onChange={(value) => value && setSearch({ month: value })}
          allowDeselect={false}
          disabled={months.isPending}
          placeholder={months.isPending ? t('Loading months…') : t('Choose a month')}
          w={{ base: '100%', xs: 300 }}
          data-testid="statement-month"
        />
        {month && <Downloads month={month} />}
      </Group>
      {months.isError && (
        <Alert color="red" variant="light" title={t('Could not load your statements')}>
          <Group justify="space-between">
            <Text size="sm">{messageOf(months.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void months.refetch()}>
              {t('Try again')}
            </Button>
          </Group>
        </Alert>
      )}
      {statement.isError && (
        <Alert
          color="red"
          variant="light"
          title={
            month
              ? t('Could not load the statement for {{month}}', { month: monthTitle(month) })
              : t('Could not load the statement for this month')
          }
        >
          <Group justify="space-between">
            <Text size="sm">{messageOf(statement.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void statement.refetch()}>
              {t('Try again')}
            </Button>
          </Group>
        </Alert>
      )}
      {(months.isPending || (statement.isPending && !!month)) && (
        <Card withBorder radius="md">
          <Center p="xl">
            <Stack align="center" gap="xs">
              <Loader size="sm" aria-label={t('Loading the statement')} />
              <Text size="sm" c="dimmed">
                {t('Loading the statement…')}
              </Text>
            </Stack>
          </Center>
        </Card>
      )}
      {s && (
        <Stack
          gap="md"
          style={{ opacity: statement.isPlaceholderData ? 0.6 : 1 }}
          aria-busy={statement.isFetching}
        >
          <Text size="sm" c="dimmed" data-testid="statement-period">
            {s.accountName} · {monthTitle(s.month)}
            {s.closed ? '' : ` ${t('(in progress)')}`} ·{' '}
            {t('times in {{zone}} ({{note}})', { zone: s.timeZone, note: s.timeZoneNote })} · {s.currency}
          </Text>
          <StatementSummary statement={s} />
          <StatementEntries key={s.month} statement={s} monthTitle={monthTitle(s.month)} />
          <StatementUsage statement={s} />
        </Stack>
      )}
    </Stack>
  );
}
