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
import { useT } from '@/lib/i18n';
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

/** A status as the badge shows it (English text, each a key). */
const STATUS_TEXT: Record<TopUpStatus, string> = {
  pending: 'pending',
  approved: 'approved',
  paid: 'paid',
  rejected: 'rejected',
  expired: 'expired',
};

function StatusBadge({ status }: { status: TopUpStatus }) {
  const t = useT();
  const scheme = useComputedColorScheme('light');
  return (
    <Badge variant="light" color={COLOR[status]} miw="max-content" c={TEXT[status]?.[scheme]}>
      {STATUS_TEXT[status] ? t(STATUS_TEXT[status]) : status}
    </Badge>
  );
}

/**
 * Admin → Top-up requests (issue 47): with no payment provider, customers ask for credit here and
 * an operator approves (the stored amount is credited once) or rejects, after a confirmation.
 */
export default function TopUpsPage() {
  const t = useT();
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
          ? t('Credited {{amount}} to {{account}}.', { amount, account: asking.topUp.accountName })
          : t('Rejected the request of {{amount}}.', { amount }),
      );
      dialog.close();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <SectionHeader title={t('Top-up requests')} hint={t('Approving credits the requested amount once')}>
          <SegmentedControl
            aria-label={t('Status')}
            value={status}
            onChange={(v) => setStatus(v)}
            data={[
              { value: 'pending', label: t('Waiting') },
              { value: 'approved', label: t('Approved') },
              { value: 'rejected', label: t('Rejected') },
            ]}
          />
        </SectionHeader>
        {list.isPending && <LoadingBlock label={t('Loading top-up requests…')} />}
        {list.isError && <ErrorBlock message={messageOf(list.error)} onRetry={() => void list.refetch()} />}
        {list.isSuccess && list.data.length === 0 && (
          <EmptyBlock
            title={
              status === 'pending'
                ? t('No requests waiting')
                : status === 'approved'
                  ? t('No approved requests')
                  : t('No rejected requests')
            }
          >
            {status === 'pending' ? t('Customers’ requests for credit appear here.') : null}
          </EmptyBlock>
        )}
        {list.isSuccess && list.data.length > 0 && (
          <ResponsiveTable minWidth={820} verticalSpacing="sm" data-testid="admin-top-ups">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Requested')}</Table.Th>
                <Table.Th>{t('Account')}</Table.Th>
                <Table.Th ta="right">{t('Amount')}</Table.Th>
                <Table.Th>{t('Note')}</Table.Th>
                <Table.Th>{t('Status')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td data-label={t('Requested')}>
                    <When at={u.createdAt} />
                    {u.requestedBy && (
                      <Text size="xs" c="dimmed">
                        {t('by {{name}}', { name: u.requestedBy })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Account')}>{u.accountName}</Table.Td>
                  <Table.Td data-label={t('Amount')} ta="right" ff="monospace">
                    {formatMoney(u.amountMinor, u.currency)}
                  </Table.Td>
                  <Table.Td data-label={t('Note')}>
                    <Text size="sm" lineClamp={2}>
                      {[u.note, u.decisionNote && t('Decision: {{note}}', { note: u.decisionNote })]
                        .filter(Boolean)
                        .join(' · ') || '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label={t('Status')}>
                    <StatusBadge status={u.status} />
                    {u.decidedBy && (
                      <Text size="xs" c="dimmed">
                        {t('by {{name}}', { name: u.decidedBy })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label="">
                    {u.status === 'pending' && (
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" onClick={() => open(u, 'approve')}>
                          {t('Approve…')}
                        </Button>
                        <Button size="xs" variant="default" onClick={() => open(u, 'reject')}>
                          {t('Reject…')}
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
        title={asking?.decision === 'approve' ? t('Approve top-up') : t('Reject top-up')}
        closeButtonProps={{ 'aria-label': t('Close') }}
        centered
      >
        {asking && (
          <Stack gap="sm">
            <Text size="sm">
              {t(
                asking.decision === 'approve'
                  ? 'Credit {{amount}} to “{{account}}”? Approve only once the payment has arrived.'
                  : 'Reject the request of {{amount}} from “{{account}}”? Nothing is credited.',
                {
                  amount: formatMoney(asking.topUp.amountMinor, asking.topUp.currency),
                  account: asking.topUp.accountName,
                },
              )}
            </Text>
            <FormAlert message={error} />
            <Textarea
              label={t('Note (optional, the customer sees it)')}
              autosize
              minRows={2}
              maxLength={500}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={dialog.close} data-autofocus>
                {t('Cancel')}
              </Button>
              <Button
                color={asking.decision === 'approve' ? undefined : 'red'}
                loading={decide.isPending}
                onClick={() => void confirm()}
              >
                {asking.decision === 'approve' ? t('Approve and credit') : t('Reject')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
