import { Alert, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { Balance } from '../api/get-balance';
import { formatMoney } from '@/lib/money';
import type { CostEstimate } from '../cost';
import { formatInZone } from '../zoned-time';

export interface SendSummary {
  recipients: string[];
  sender: string;
  segments: number;
  encoding: 'GSM-7' | 'UCS-2';
  cost: CostEstimate | null;
  /** The scheduled instant and its zone, or null to send now. */
  schedule: { at: Date; timezone: string } | null;
}

interface ConfirmSendModalProps {
  summary: SendSummary | null;
  balance: Balance | undefined;
  sending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

const SHOWN = 5;

/** The last look before sending: who, what, when and how much. */
export function ConfirmSendModal({ summary, balance, sending, onCancel, onConfirm }: ConfirmSendModalProps) {
  const t = useT();
  const s = summary;
  const count = s?.recipients.length ?? 0;
  const short = s?.cost && balance && s.cost.totalMinor > balance.balanceMinor;
  return (
    <Modal opened={s !== null} onClose={onCancel} title={t('Review your message')} centered size="lg">
      {s && (
        <Stack>
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={150}>{t('Recipients')}</Table.Th>
                <Table.Td data-testid="confirm-recipients">
                  {count === 1 ? t('{{count}} recipient', { count }) : t('{{count}} recipients', { count })}
                  <Text size="xs" c="dimmed">
                    {s.recipients.slice(0, SHOWN).join(', ')}
                    {count > SHOWN && t(' and {{count}} more', { count: count - SHOWN })}
                  </Text>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('From')}</Table.Th>
                <Table.Td>{s.sender}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Message')}</Table.Th>
                <Table.Td>
                  {s.segments === 1
                    ? t('{{count}} segment ({{encoding}}), {{total}} in total', {
                        count: s.segments,
                        encoding: s.encoding,
                        total: count * s.segments,
                      })
                    : t('{{count}} segments ({{encoding}}), {{total}} in total', {
                        count: s.segments,
                        encoding: s.encoding,
                        total: count * s.segments,
                      })}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('When')}</Table.Th>
                <Table.Td>
                  {s.schedule ? formatInZone(s.schedule.at, s.schedule.timezone) : t('Now')}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Cost')}</Table.Th>
                <Table.Td>
                  <Text fw={700} data-testid="confirm-cost">
                    {s.cost ? formatMoney(s.cost.totalMinor, s.cost.currency) : t('Unknown')}
                  </Text>
                  {s.cost?.lines.map((line) => (
                    <Text size="xs" c="dimmed" key={line.prefix}>
                      {line.country ?? t('Other destinations')}: {line.recipients} × {s.segments} ×{' '}
                      {formatMoney(line.perSegmentMinor, s.cost!.currency)}
                    </Text>
                  ))}
                </Table.Td>
              </Table.Tr>
              {balance && s.cost && (
                <Table.Tr>
                  <Table.Th>{t('Balance after')}</Table.Th>
                  <Table.Td>
                    {formatMoney(balance.balanceMinor - s.cost.totalMinor, balance.currency)}
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
          {short && (
            <Alert color="red" variant="light">
              {t('Your balance does not cover this send; it will be refused.')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={sending}>
              {t('Back to editing')}
            </Button>
            <Button onClick={onConfirm} loading={sending} data-autofocus>
              {s.schedule
                ? count === 1
                  ? t('Schedule message')
                  : t('Schedule {{count}} messages', { count })
                : count === 1
                  ? t('Send to {{count}} recipient', { count })
                  : t('Send to {{count}} recipients', { count })}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
