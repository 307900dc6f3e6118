import { useState } from 'react';
import { Button, Card, Group, Modal, NumberInput, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import type { SubAccountDetail } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { useTransfer } from '../api/sub-accounts';
import { useT } from '@/lib/i18n';

type Direction = 'to_child' | 'from_child';

/** Move balance to the sub-account or take it back, after a confirmation. */
export function TransferCard({ account }: { account: SubAccountDetail }) {
  const transfer = useTransfer(account.id);
  const t = useT();
  const [direction, setDirection] = useState<Direction>('to_child');
  const [amount, setAmount] = useState<string | number>('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ minor: number; key: string } | null>(null);
  const money = (minor: number) => formatMoney(minor, account.currency);

  const review = (e: React.FormEvent) => {
    e.preventDefault();
    const value = typeof amount === 'number' ? amount : Number.parseFloat(amount);
    const minor = Math.round(value * 100);
    if (!Number.isFinite(value) || minor <= 0) return setFieldError(t('Enter an amount of at least 0.01'));
    if (Math.abs(value * 100 - minor) > 1e-6) return setFieldError(t('Use at most two decimals'));
    if (direction === 'from_child' && minor > account.balanceMinor)
      return setFieldError(t('The sub-account has {{amount}}', { amount: money(account.balanceMinor) }));
    setFieldError(null);
    transfer.reset();
    setConfirming({ minor, key: crypto.randomUUID() });
  };

  const confirm = () => {
    if (!confirming) return;
    transfer.mutate(
      { direction, amountMinor: confirming.minor, idempotencyKey: confirming.key },
      {
        onSuccess: (r) => {
          toast.success(
            t(
              direction === 'to_child'
                ? 'Moved {{amount}}. {{name}} now has {{balance}}.'
                : 'Took back {{amount}}. {{name}} now has {{balance}}.',
              { amount: money(confirming.minor), name: account.name, balance: money(r.childBalanceMinor) },
            ),
          );
          setConfirming(null);
          setAmount('');
        },
      },
    );
  };

  return (
    <Card withBorder padding="md">
      <form onSubmit={review} noValidate aria-label={t('Transfer balance')}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('Transfer balance')}
          </Title>
          <SegmentedControl
            value={direction}
            onChange={(v) => setDirection(v)}
            data={[
              { value: 'to_child', label: t('Add to sub-account') },
              { value: 'from_child', label: t('Take back') },
            ]}
            aria-label={t('Direction')}
          />
          <NumberInput
            label={t('Amount ({{currency}})', { currency: account.currency })}
            min={0}
            decimalScale={2}
            hideControls
            value={amount}
            onChange={setAmount}
            error={fieldError}
            required
          />
          <Group>
            <Button type="submit">{t('Review transfer')}</Button>
          </Group>
        </Stack>
      </form>
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={t('Confirm the transfer')}
        centered
      >
        <Stack>
          <Text size="sm">
            {direction === 'to_child'
              ? t('Move {{amount}} from your balance to {{name}}?', {
                  amount: money(confirming?.minor ?? 0),
                  name: account.name,
                })
              : t('Take {{amount}} back from {{name}} to your balance?', {
                  amount: money(confirming?.minor ?? 0),
                  name: account.name,
                })}
          </Text>
          <FormAlert message={transfer.error ? transfer.error.message : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)} data-autofocus>
              {t('Cancel')}
            </Button>
            <Button onClick={confirm} loading={transfer.isPending}>
              {t('Transfer {{amount}}', { amount: money(confirming?.minor ?? 0) })}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
