import { Alert, Anchor, Card, Divider, Loader, Skeleton, Stack, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { downloadIssues } from '@/features/campaigns';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import type { CampaignComposerState } from '../use-campaign-composer';
import { SummaryRow } from './summary-row';
import { formatNumber } from '@/lib/format';

function Row(props: { label: string; value: React.ReactNode; testId?: string }) {
  return <SummaryRow {...props} valueAlign="right" />;
}

/** The live estimate beside the form: recipients, what is not sent and why, the cost and the balance. */
export function CampaignEstimateCard({ composer: c }: { composer: CampaignComposerState }) {
  const t = useT();
  const { est, balance, balanceAfter, currency } = c;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="campaign-estimate">
      <Stack gap="xs">
        <Text size="xs" tt="uppercase" fw={700} c="dimmed">
          {t('Estimate')}
        </Text>
        {!c.hasSource ? (
          <Text size="sm" c="dimmed">
            {c.personalised
              ? t('Upload a file and write the message to see the recipients and the cost.')
              : t('Choose recipients to see how many will get the message and what it costs.')}
          </Text>
        ) : c.estimateError ? (
          <Alert color="red" variant="light" role="alert" p="xs">
            {c.estimateError.message}
          </Alert>
        ) : !est ? (
          <Stack gap={6}>
            <Skeleton h={14} />
            <Skeleton h={14} />
            <Skeleton h={14} />
          </Stack>
        ) : (
          <>
            <Row
              label={t('Recipients')}
              value={
                <>
                  {formatNumber(est.recipients)}
                  {c.estimate.isFetching && <Loader size={10} ml={6} />}
                </>
              }
              testId="estimate-recipients"
            />
            {est.duplicates > 0 && (
              <Row label={t('Duplicates removed')} value={formatNumber(est.duplicates)} />
            )}
            {est.invalid > 0 && (
              <Row
                label={t('Invalid (not sent)')}
                value={formatNumber(est.invalid)}
                testId="estimate-invalid"
              />
            )}
            {est.suppressed > 0 && (
              <Row label={t('Opted out (not sent)')} value={formatNumber(est.suppressed)} />
            )}
            <Row label={c.personalised ? t('Most segments in a row') : t('Segments')} value={c.segments} />
            <Row
              label={t('Encoding')}
              value={
                (c.personalised ? est.encoding : c.info.encoding) === 'GSM-7' ? 'GSM-7' : 'Unicode (UCS-2)'
              }
            />
            <Divider />
            <Row
              label={t('Total cost')}
              value={c.costMinor !== null ? formatMoney(c.costMinor, currency) : '—'}
              testId="estimate-cost"
            />
            {balance.allowed && (
              <>
                <Row
                  label={t('Balance')}
                  value={balance.data ? formatMoney(balance.data.balanceMinor, currency) : '—'}
                />
                <Row
                  label={t('Balance after')}
                  value={
                    balanceAfter !== null ? (
                      <Text span c={balanceAfter < 0 ? 'red' : undefined} fw={600} size="sm">
                        {formatMoney(balanceAfter, currency)}
                      </Text>
                    ) : (
                      '—'
                    )
                  }
                  testId="estimate-balance-after"
                />
              </>
            )}
            {balanceAfter !== null && balanceAfter < 0 && (
              <Alert color="red" variant="light" p="xs">
                {t('Your balance does not cover this campaign.')}
              </Alert>
            )}
            {est.issues.length > 0 && (
              <>
                <Divider />
                <Text size="sm" fw={600}>
                  {t('Not sent')}
                </Text>
                <Stack gap={2} data-testid="estimate-issues">
                  {est.issues.slice(0, 5).map((i, n) => (
                    <Text key={n} size="xs">
                      {i.row !== null ? t('Row {{row}}: ', { row: i.row }) : ''}
                      <b>{i.value || t('(empty)')}</b> · {i.reason}
                    </Text>
                  ))}
                </Stack>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() =>
                    void downloadIssues(c.source).catch((e: unknown) =>
                      toast.error(e instanceof Error ? e.message : String(e)),
                    )
                  }
                >
                  {t('Download the full list (CSV)')}
                </Anchor>
              </>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
