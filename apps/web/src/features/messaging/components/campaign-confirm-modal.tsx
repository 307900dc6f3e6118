import { Alert, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { describeSendWindow } from '@wren/contracts';
import { SendWindowPlan } from '@/features/campaigns';
import { formatMoney } from '@/lib/money';
import type { CampaignComposerState } from '../use-campaign-composer';
import { CampaignReviewRecipients } from './campaign-review-recipients';
import { formatInZone } from '../zoned-time';
import { formatNumber, formatPause } from '@/lib/format';

/** The last step before a campaign is sent or scheduled: everything it will do, once more. */
export function CampaignConfirmModal({ composer: c }: { composer: CampaignComposerState }) {
  const t = useT();
  const { est, scheduledInstant, timezone, currency } = c;
  const firstRow = c.filled ? est?.preview.find((p) => !p.problem) : undefined;
  return (
    <Modal
      opened={c.confirming}
      onClose={() => c.setConfirming(false)}
      title={c.schedule ? t('Review and schedule') : t('Review and send')}
      centered
      size="lg"
    >
      {est && (
        <Stack>
          <Table variant="vertical" layout="fixed" withTableBorder data-testid="campaign-confirm">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={160}>{t('Recipients')}</Table.Th>
                <Table.Td>{formatNumber(est.recipients)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Sender ID')}</Table.Th>
                <Table.Td>{c.sender}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Message')}</Table.Th>
                <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {c.text}
                  {firstRow && (
                    <Text size="xs" c="dimmed" mt={4}>
                      {t('First row: {{text}}', { text: firstRow.text })}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Segments')}</Table.Th>
                <Table.Td>
                  {c.segments} ·{' '}
                  {(c.filled ? est.encoding : c.info.encoding) === 'GSM-7' ? 'GSM-7' : 'Unicode'}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Total cost')}</Table.Th>
                <Table.Td fw={700}>
                  {c.costMinor !== null ? formatMoney(c.costMinor, currency) : '—'}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Balance after')}</Table.Th>
                <Table.Td>{c.balanceAfter !== null ? formatMoney(c.balanceAfter, currency) : '—'}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('When')}</Table.Th>
                <Table.Td>
                  {scheduledInstant ? (
                    <>
                      {formatInZone(scheduledInstant, timezone)}
                      {timezone !== c.userZone && (
                        <Text size="xs" c="dimmed">
                          {t('{{time}} in your time zone', {
                            time: formatInZone(scheduledInstant, c.userZone),
                          })}
                        </Text>
                      )}
                    </>
                  ) : (
                    t('Now')
                  )}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Send window')}</Table.Th>
                <Table.Td>
                  {est.sendWindows
                    ? est.sendWindows.source === 'account'
                      ? t("{{window}} recipient's local time (account default)", {
                          window: describeSendWindow(est.sendWindows.window),
                        })
                      : t("{{window}} recipient's local time", {
                          window: describeSendWindow(est.sendWindows.window),
                        })
                    : t('Any hour')}
                </Table.Td>
              </Table.Tr>
              {c.ratePerMinute !== undefined && (
                <Table.Tr>
                  <Table.Th>{t('Send rate')}</Table.Th>
                  <Table.Td>{t('{{count}} per minute', { count: formatNumber(c.ratePerMinute) })}</Table.Td>
                </Table.Tr>
              )}
              {c.shaping.value.batchSize !== undefined && (
                <Table.Tr>
                  <Table.Th>{t('Batches')}</Table.Th>
                  <Table.Td>
                    {t('{{count}} messages, then a pause of {{pause}}', {
                      count: formatNumber(c.shaping.value.batchSize),
                      pause: formatPause(c.shaping.value.batchPauseSeconds ?? 0),
                    })}
                  </Table.Td>
                </Table.Tr>
              )}
              {c.shaping.value.prefixRates && (
                <Table.Tr>
                  <Table.Th>{t('Per network')}</Table.Th>
                  <Table.Td>
                    {c.shaping.value.prefixRates
                      .map((r) =>
                        t('+{{prefix}} at most {{count}} a minute', {
                          prefix: r.prefix.replace(/^\+/, ''),
                          count: formatNumber(r.perMinute),
                        }),
                      )
                      .join(' · ')}
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
          {c.filled && <CampaignReviewRecipients est={est} currency={currency} />}
          {est.sendWindows && <SendWindowPlan plan={est.sendWindows} />}
          {c.balanceAfter !== null && c.balanceAfter < 0 && (
            <Alert color="red" variant="light">
              {t('Your balance does not cover this campaign; top up first.')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => c.setConfirming(false)}>
              {t('Back')}
            </Button>
            <Button onClick={() => void c.confirm()} loading={c.sending}>
              {c.schedule
                ? t('Schedule campaign')
                : est.recipients === 1
                  ? t('Send to {{count}} recipient', { count: formatNumber(est.recipients) })
                  : t('Send to {{count}} recipients', { count: formatNumber(est.recipients) })}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
