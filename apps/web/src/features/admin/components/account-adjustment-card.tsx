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
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { newRequestId } from '@/lib/request-id';
import { toast } from '@/lib/toast';
import { useAdjust } from '../api/admin-api';
import { toMinor } from '../amount';
import { rich } from './common';

/** A manual credit or debit of an account's balance, confirmed first and posted once. */
export function AccountAdjustmentCard({ account }: { account: AdminAccountDetail }) {
  const t = useT();
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
    if (!minor) return setError(t('Enter an amount greater than zero, e.g. 25.00'));
    if (reason.trim().length < 3) return setError(t('Give a reason of at least 3 characters'));
    setRequestId(newRequestId());
    setConfirming(true);
  };
  const submit = async () => {
    try {
      const res = (await adjust.mutateAsync({ amountMinor: signed!, reason: reason.trim(), requestId })) as {
        balanceMinor: number;
      };
      toast.success(
        t('Balance is now {{balance}}.', { balance: formatMoney(res.balanceMinor, account.currency) }),
      );
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
        {t('Credit or debit')}
      </Title>
      <Stack gap="sm">
        <SegmentedControl
          aria-label={t('Direction')}
          value={direction}
          onChange={(v) => setDirection(v)}
          data={[
            { value: 'credit', label: t('Credit (top-up)') },
            { value: 'debit', label: t('Debit') },
          ]}
        />
        <NumberInput
          label={t('Amount ({{currency}})', { currency: account.currency })}
          placeholder="25.00"
          decimalScale={2}
          min={0}
          hideControls
          value={amount}
          onChange={(v) => setAmount(String(v))}
        />
        <Textarea
          label={t('Reason')}
          description={t(
            "Shown in the account's ledger and the audit log. Say “overdraft” to allow a negative balance where that is enabled.",
          )}
          placeholder={t('Bank transfer ref 2026-0415')}
          autosize
          minRows={2}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <FormAlert message={error} />
        <Group justify="flex-end">
          <Button onClick={ask}>{direction === 'credit' ? t('Credit account') : t('Debit account')}</Button>
        </Group>
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('Confirm adjustment')}
        centered
      >
        <Stack>
          <Text size="sm">
            {rich(
              t,
              direction === 'credit'
                ? 'Credit {{amount}} to {{account}}? The balance goes from {{before}} to {{after}}. Ledger entries cannot be changed afterwards; a mistake is corrected with an opposite adjustment.'
                : 'Debit {{amount}} from {{account}}? The balance goes from {{before}} to {{after}}. Ledger entries cannot be changed afterwards; a mistake is corrected with an opposite adjustment.',
              {
                amount: <b>{signed !== null && formatMoney(Math.abs(signed), account.currency)}</b>,
                account: <b>{account.username ?? account.name}</b>,
                before: formatMoney(account.balanceMinor, account.currency),
                after: <b>{formatMoney(account.balanceMinor + (signed ?? 0), account.currency)}</b>,
              },
            )}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              {t('Cancel')}
            </Button>
            <Button
              onClick={() => void submit()}
              loading={adjust.isPending}
              color={direction === 'debit' ? 'red' : undefined}
            >
              {direction === 'credit' ? t('Confirm credit') : t('Confirm debit')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
