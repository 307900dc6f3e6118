import { useState } from 'react';
import {
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  useComputedColorScheme,
} from '@mantine/core';
import type { AdminTopUpDto, TopUpStatus } from '@wren/contracts';
import { useModalTarget } from '@/components/confirm-delete-modal';
import { FormAlert } from '@/components/form-alert';
import { ResponsiveTable } from '@/components/responsive-table';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { useAdminTopUps, useDecideTopUp } from '../api/top-ups';
import { EmptyBlock, ErrorBlock, LoadingBlock, SectionHeader, When } from '../components/common';

type Shown = Extract<TopUpStatus, 'pending' | 'approved' | 'rejected'>;
const COLOR: Record<TopUpStatus, string> = {
  pending: 'yellow',
  approved: 'teal',
  paid: 'teal',
  rejected: 'red',
  expired: 'gray',
};

/** Text colours that meet AA on a light badge (Mantine's light teal, yellow and red text do not). */
const TEXT: Partial<Record<TopUpStatus, { light: string; dark: string }>> = {
  pending: { light: '#6b4f00', dark: 'yellow.3' },
  approved: { light: '#05654a', dark: 'teal.3' },
  paid: { light: '#05654a', dark: 'teal.3' },
  rejected: { light: '#a51d1d', dark: 'red.3' },
};

function StatusBadge({ status }: { status: TopUpStatus }) {
  const scheme = useComputedColorScheme('light');
  return (
    <Badge variant="light" color={COLOR[status]} miw="max-content" c={TEXT[status]?.[scheme]}>
      {status}
    </Badge>
  );
}

/**
 * Admin → Top-up requests (issue 47): with no payment provider, customers ask for credit here and
 * an operator approves (the stored amount is credited once) or rejects, after a confirmation.
 */
export default function TopUpsPage() {
  const [status, setStatus] = useState<Shown>('pending');
  const list = useAdminTopUps(status);
  const decide = useDecideTopUp();
  const dialog = useModalTarget<{ topUp: AdminTopUpDto; decision: 'approve' | 'reject' }>();
  const asking = dialog.target;
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);

  const open = (topUp: AdminTopUpDto, decision: 'approve' | 'reject') => {
    setNote('');
    setError(null);
    dialog.open({ topUp, decision });
  };
  const confirm = async () => {
    if (!asking) return;
    try {
      await decide.mutateAsync({
        id: asking.topUp.id,
        decision: asking.decision,
        note: note.trim() || undefined,
      });
      const amount = formatMoney(asking.topUp.amountMinor, asking.topUp.currency);
      toast.success(
        asking.decision === 'approve'
          ? `Credited ${amount} to ${asking.topUp.accountName}.`
          : `Rejected the request of ${amount}.`,
      );
      dialog.close();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <SectionHeader title="Top-up requests" hint="Approving credits the requested amount once">
          <SegmentedControl
            aria-label="Status"
            value={status}
            onChange={(v) => setStatus(v)}
            data={[
              { value: 'pending', label: 'Waiting' },
              { value: 'approved', label: 'Approved' },
              { value: 'rejected', label: 'Rejected' },
            ]}
          />
        </SectionHeader>
        {list.isPending && <LoadingBlock label="Loading top-up requests…" />}
        {list.isError && <ErrorBlock message={messageOf(list.error)} onRetry={() => void list.refetch()} />}
        {list.isSuccess && list.data.length === 0 && (
          <EmptyBlock title={status === 'pending' ? 'No requests waiting' : `No ${status} requests`}>
            {status === 'pending' ? 'Customers’ requests for credit appear here.' : null}
          </EmptyBlock>
        )}
        {list.isSuccess && list.data.length > 0 && (
          <ResponsiveTable minWidth={820} verticalSpacing="sm" data-testid="admin-top-ups">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Requested</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th>Note</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td data-label="Requested">
                    <When at={t.createdAt} />
                    {t.requestedBy && (
                      <Text size="xs" c="dimmed">
                        by {t.requestedBy}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label="Account">{t.accountName}</Table.Td>
                  <Table.Td data-label="Amount" ta="right" ff="monospace">
                    {formatMoney(t.amountMinor, t.currency)}
                  </Table.Td>
                  <Table.Td data-label="Note">
                    <Text size="sm" lineClamp={2}>
                      {[t.note, t.decisionNote && `Decision: ${t.decisionNote}`]
                        .filter(Boolean)
                        .join(' · ') || '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label="Status">
                    <StatusBadge status={t.status} />
                    {t.decidedBy && (
                      <Text size="xs" c="dimmed">
                        by {t.decidedBy}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label="">
                    {t.status === 'pending' && (
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" onClick={() => open(t, 'approve')}>
                          Approve…
                        </Button>
                        <Button size="xs" variant="default" onClick={() => open(t, 'reject')}>
                          Reject…
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        )}
      </Paper>
      <Modal
        opened={dialog.opened}
        onClose={dialog.close}
        title={asking?.decision === 'approve' ? 'Approve top-up' : 'Reject top-up'}
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        {asking && (
          <Stack gap="sm">
            <Text size="sm">
              {asking.decision === 'approve'
                ? `Credit ${formatMoney(asking.topUp.amountMinor, asking.topUp.currency)} to “${asking.topUp.accountName}”? Approve only once the payment has arrived.`
                : `Reject the request of ${formatMoney(asking.topUp.amountMinor, asking.topUp.currency)} from “${asking.topUp.accountName}”? Nothing is credited.`}
            </Text>
            <FormAlert message={error} />
            <Textarea
              label="Note (optional, the customer sees it)"
              autosize
              minRows={2}
              maxLength={500}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={dialog.close} data-autofocus>
                Cancel
              </Button>
              <Button
                color={asking.decision === 'approve' ? undefined : 'red'}
                loading={decide.isPending}
                onClick={() => void confirm()}
              >
                {asking.decision === 'approve' ? 'Approve and credit' : 'Reject'}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
