import { useState } from 'react';
import {
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import type { AdminAccountDetail } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { newRequestId } from '@/lib/request-id';
import { toast } from '@/lib/toast';
import { useAdjust } from '../api/admin-api';
import { toMinor } from '../amount';

/** A manual credit or debit of an account's balance, confirmed first and posted once. */
export function AccountAdjustmentCard({ account }: { account: AdminAccountDetail }) {
  const adjust = useAdjust(account.id);
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // One per confirmation: sending it twice (a double click, a retry) posts the adjustment once.
  const [requestId, setRequestId] = useState(newRequestId);
  const minor = toMinor(amount);
  const signed = minor === null ? null : direction === 'credit' ? minor : -minor;

  const ask = () => {
    setError(null);
    if (!minor) return setError('Enter an amount greater than zero, e.g. 25.00');
    if (reason.trim().length < 3) return setError('Give a reason of at least 3 characters');
    setRequestId(newRequestId());
    setConfirming(true);
  };
  const submit = async () => {
    try {
      const res = (await adjust.mutateAsync({ amountMinor: signed!, reason: reason.trim(), requestId })) as {
        balanceMinor: number;
      };
      toast.success(`Balance is now ${formatMoney(res.balanceMinor, account.currency)}.`);
      setAmount('');
      setReason('');
      setConfirming(false);
    } catch (e) {
      setError(messageOf(e));
      setConfirming(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        Credit or debit
      </Title>
      <Stack gap="sm">
        <SegmentedControl
          aria-label="Direction"
          value={direction}
          onChange={(v) => setDirection(v)}
          data={[
            { value: 'credit', label: 'Credit (top-up)' },
            { value: 'debit', label: 'Debit' },
          ]}
        />
        <NumberInput
          label={`Amount (${account.currency})`}
          placeholder="25.00"
          decimalScale={2}
          min={0}
          hideControls
          value={amount}
          onChange={(v) => setAmount(String(v))}
        />
        <Textarea
          label="Reason"
          description="Shown in the account's ledger and the audit log. Say “overdraft” to allow a negative balance where that is enabled."
          placeholder="Bank transfer ref 2026-0415"
          autosize
          minRows={2}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <FormAlert message={error} />
        <Group justify="flex-end">
          <Button onClick={ask}>{direction === 'credit' ? 'Credit account' : 'Debit account'}</Button>
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Confirm adjustment" centered>
        <Stack>
          <Text size="sm">
            {direction === 'credit' ? 'Credit' : 'Debit'}{' '}
            <b>{signed !== null && formatMoney(Math.abs(signed), account.currency)}</b>{' '}
            {direction === 'credit' ? 'to' : 'from'} <b>{account.username ?? account.name}</b>? The balance
            goes from {formatMoney(account.balanceMinor, account.currency)} to{' '}
            <b>{formatMoney(account.balanceMinor + (signed ?? 0), account.currency)}</b>. Ledger entries
            cannot be changed afterwards; a mistake is corrected with an opposite adjustment.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button
              onClick={() => void submit()}
              loading={adjust.isPending}
              color={direction === 'debit' ? 'red' : undefined}
            >
              Confirm {direction}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
