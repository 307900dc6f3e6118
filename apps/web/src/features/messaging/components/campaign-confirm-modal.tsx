import { Alert, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { describeSendWindow } from '@wren/contracts';
import { SendWindowPlan } from '@/features/campaigns';
import { formatMoney } from '@/lib/money';
import type { CampaignComposerState } from '../use-campaign-composer';
import { CampaignReviewRecipients } from './campaign-review-recipients';
import { formatInZone } from '../zoned-time';
import { formatNumber, formatPause } from '@/lib/format';

/** The last step before a campaign is sent or scheduled: everything it will do, once more. */
export function CampaignConfirmModal({ composer: c }: { composer: CampaignComposerState }) {
  const { est, scheduledInstant, timezone, currency } = c;
  const firstRow = c.filled ? est?.preview.find((p) => !p.problem) : undefined;
  return (
    <Modal
      opened={c.confirming}
      onClose={() => c.setConfirming(false)}
      title={c.schedule ? 'Review and schedule' : 'Review and send'}
      centered
      size="lg"
    >
      {est && (
        <Stack>
          <Table variant="vertical" layout="fixed" withTableBorder data-testid="campaign-confirm">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={160}>Recipients</Table.Th>
                <Table.Td>{formatNumber(est.recipients)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Sender ID</Table.Th>
                <Table.Td>{c.sender}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Message</Table.Th>
                <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {c.text}
                  {firstRow && (
                    <Text size="xs" c="dimmed" mt={4}>
                      First row: {firstRow.text}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Segments</Table.Th>
                <Table.Td>
                  {c.segments} ·{' '}
                  {(c.filled ? est.encoding : c.info.encoding) === 'GSM-7' ? 'GSM-7' : 'Unicode'}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Total cost</Table.Th>
                <Table.Td fw={700}>
                  {c.costMinor !== null ? formatMoney(c.costMinor, currency) : '—'}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Balance after</Table.Th>
                <Table.Td>{c.balanceAfter !== null ? formatMoney(c.balanceAfter, currency) : '—'}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Td>
                  {scheduledInstant ? (
                    <>
                      {formatInZone(scheduledInstant, timezone)}
                      {timezone !== c.userZone && (
                        <Text size="xs" c="dimmed">
                          {formatInZone(scheduledInstant, c.userZone)} in your time zone
                        </Text>
                      )}
                    </>
                  ) : (
                    'Now'
                  )}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Send window</Table.Th>
                <Table.Td>
                  {est.sendWindows
                    ? `${describeSendWindow(est.sendWindows.window)} recipient's local time${est.sendWindows.source === 'account' ? ' (account default)' : ''}`
                    : 'Any hour'}
                </Table.Td>
              </Table.Tr>
              {c.ratePerMinute !== undefined && (
                <Table.Tr>
                  <Table.Th>Send rate</Table.Th>
                  <Table.Td>{formatNumber(c.ratePerMinute)} per minute</Table.Td>
                </Table.Tr>
              )}
              {c.shaping.value.batchSize !== undefined && (
                <Table.Tr>
                  <Table.Th>Batches</Table.Th>
                  <Table.Td>
                    {formatNumber(c.shaping.value.batchSize)} messages, then a pause of{' '}
                    {formatPause(c.shaping.value.batchPauseSeconds ?? 0)}
                  </Table.Td>
                </Table.Tr>
              )}
              {c.shaping.value.prefixRates && (
                <Table.Tr>
                  <Table.Th>Per network</Table.Th>
                  <Table.Td>
                    {c.shaping.value.prefixRates
                      .map(
                        (r) =>
                          `+${r.prefix.replace(/^\+/, '')} at most ${formatNumber(r.perMinute)} a minute`,
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
              Your balance does not cover this campaign; top up first.
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => c.setConfirming(false)}>
              Back
            </Button>
            <Button onClick={() => void c.confirm()} loading={c.sending}>
              {c.schedule
                ? 'Schedule campaign'
                : `Send to ${formatNumber(est.recipients)} ${est.recipients === 1 ? 'recipient' : 'recipients'}`}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
