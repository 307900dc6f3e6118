import { Alert, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
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
  const s = summary;
  const count = s?.recipients.length ?? 0;
  const short = s?.cost && balance && s.cost.totalMinor > balance.balanceMinor;
  return (
    <Modal opened={s !== null} onClose={onCancel} title="Review your message" centered size="lg">
      {s && (
        <Stack>
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={150}>Recipients</Table.Th>
                <Table.Td data-testid="confirm-recipients">
                  {count} {count === 1 ? 'recipient' : 'recipients'}
                  <Text size="xs" c="dimmed">
                    {s.recipients.slice(0, SHOWN).join(', ')}
                    {count > SHOWN && ` and ${count - SHOWN} more`}
                  </Text>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>From</Table.Th>
                <Table.Td>{s.sender}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Message</Table.Th>
                <Table.Td>
                  {s.segments} {s.segments === 1 ? 'segment' : 'segments'} ({s.encoding}),{' '}
                  {count * s.segments} in total
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Td>{s.schedule ? formatInZone(s.schedule.at, s.schedule.timezone) : 'Now'}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Cost</Table.Th>
                <Table.Td>
                  <Text fw={700} data-testid="confirm-cost">
                    {s.cost ? formatMoney(s.cost.totalMinor, s.cost.currency) : 'Unknown'}
                  </Text>
                  {s.cost?.lines.map((line) => (
                    <Text size="xs" c="dimmed" key={line.prefix}>
                      {line.country ?? 'Other destinations'}: {line.recipients} × {s.segments} ×{' '}
                      {formatMoney(line.perSegmentMinor, s.cost!.currency)}
                    </Text>
                  ))}
                </Table.Td>
              </Table.Tr>
              {balance && s.cost && (
                <Table.Tr>
                  <Table.Th>Balance after</Table.Th>
                  <Table.Td>
                    {formatMoney(balance.balanceMinor - s.cost.totalMinor, balance.currency)}
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
          {short && (
            <Alert color="red" variant="light">
              Your balance does not cover this send; it will be refused.
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={sending}>
              Back to editing
            </Button>
            <Button onClick={onConfirm} loading={sending} data-autofocus>
              {s.schedule
                ? `Schedule ${count === 1 ? 'message' : `${count} messages`}`
                : `Send to ${count} ${count === 1 ? 'recipient' : 'recipients'}`}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
