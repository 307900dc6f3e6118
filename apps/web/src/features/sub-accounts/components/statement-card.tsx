import { useState } from 'react';
import { Alert, Button, Card, Group, Loader, Select, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { childStatementPath, type StatementMonthList } from '@wren/contracts';
import { downloadFile } from '@/lib/download';
import { http } from '@/lib/http/client';
import { messageOf } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { monthTitle } from '@/lib/month-title';
import { useT } from '@/lib/i18n';

/**
 * The sub-account's monthly statement for its reseller to bill with (issue 39 items 4 and 5): the
 * child's own statement, as CSV or PDF, for a month it had activity in.
 */
export function StatementCard({ id, name }: { id: string; name: string }) {
  const months = useQuery({
    queryKey: ['sub-accounts', id, 'statements'],
    queryFn: async () =>
      (await http.get<StatementMonthList>(childStatementPath(id), { noOverlay: true })).data,
  });
  const t = useT();
  const [picked, setPicked] = useState<string | null>(null);
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const month = picked ?? months.data?.currentMonth ?? null;
  const download = async (kind: 'csv' | 'pdf') => {
    if (!month) return;
    setBusy(kind);
    try {
      const slug =
        name
          .replace(/[^A-Za-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .toLowerCase() || 'client';
      await downloadFile(childStatementPath(id, month, kind), `statement-${slug}-${month}.${kind}`);
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card withBorder padding="md" data-testid="sub-account-statement">
      <Title order={2} size="h4" mb="xs">
        {t('Statement')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t(
          'The month as the sub-account sees it (its ledger, balances and usage by country), to bill your client with.',
        )}
      </Text>
      {months.isPending ? (
        <Loader size="sm" aria-label={t('Loading the statement months')} />
      ) : months.isError ? (
        <Alert color="red">{messageOf(months.error)}</Alert>
      ) : (
        <Group align="end" gap="sm" wrap="wrap">
          <Select
            label={t('Month')}
            data={months.data.items.map((m) => ({ value: m.month, label: monthTitle(m.month) }))}
            value={month}
            onChange={setPicked}
            allowDeselect={false}
            w={200}
          />
          <Button variant="default" loading={busy === 'csv'} onClick={() => void download('csv')}>
            {t('Download CSV')}
          </Button>
          <Button variant="default" loading={busy === 'pdf'} onClick={() => void download('pdf')}>
            {t('Download PDF')}
          </Button>
        </Group>
      )}
    </Card>
  );
}
