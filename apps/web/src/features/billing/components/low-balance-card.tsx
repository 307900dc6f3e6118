import { useEffect, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { FormAlert } from '@/components/form-alert';
import { useCan } from '@/lib/account-role';
import { formatDateTime } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { toMinor, useLowBalance, useSetLowBalance } from '../api/billing';
import { useT } from '@/lib/i18n';

const asText = (minor: number | null) => (minor === null ? '' : (minor / 100).toFixed(2));

/**
 * The low-balance alert (issue 47): an email to the account's billing members and an entry in the
 * activity feed once the balance drops below the threshold; again only after it was back above.
 */
export function LowBalanceCard() {
  const state = useLowBalance();
  const save = useSetLowBalance();
  const canSet = useCan('billing:topup');
  const t = useT();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const current = state.data?.thresholdMinor ?? null;
  useEffect(() => setText(asText(current)), [current]);

  const submit = async (value: number | null) => {
    setError(null);
    try {
      const res = await save.mutateAsync(value);
      toast.success(
        res.thresholdMinor === null
          ? t('Low-balance alert turned off.')
          : t('You will be alerted below {{amount}}.', {
              amount: formatMoney(res.thresholdMinor, res.currency),
            }),
      );
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        {t('Low-balance alert')}
      </Title>
      {state.isPending && (
        <Text size="sm" c="dimmed">
          {t('Loading…')}
        </Text>
      )}
      {state.isError && (
        <Text size="sm" c="red">
          {t('Could not load the alert: {{error}}', { error: messageOf(state.error) })}
        </Text>
      )}
      {state.data && (
        <Stack gap="sm">
          {state.data.below && state.data.thresholdMinor !== null && (
            <Alert color="orange" variant="light" data-testid="low-balance-warning">
              {t('Your balance is below {{amount}}. Top up so that your messages keep sending.', {
                amount: formatMoney(state.data.thresholdMinor, state.data.currency),
              })}
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            {state.data.thresholdMinor === null
              ? t('Off. Set an amount to get an email and an in-app notice when your balance drops below it.')
              : t('On at {{amount}}: one email and in-app notice each time the balance drops below it.', {
                  amount: formatMoney(state.data.thresholdMinor, state.data.currency),
                })}
            {state.data.firedAt
              ? ` ${t('Last sent {{date}}.', { date: formatDateTime(state.data.firedAt) })}`
              : ''}
          </Text>
          {canSet && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                const minor = toMinor(text);
                if (!minor) return setError(t('Enter an amount above zero, e.g. 10.00'));
                void submit(minor);
              }}
            >
              <Stack gap="sm">
                <FormAlert message={error} />
                <TextInput
                  label={t('Alert me below ({{currency}})', { currency: state.data.currency })}
                  placeholder="10.00"
                  inputMode="decimal"
                  value={text}
                  onChange={(e) => setText(e.currentTarget.value)}
                  maw={260}
                />
                <Group gap="sm">
                  <Button type="submit" variant="light" loading={save.isPending}>
                    {t('Save alert')}
                  </Button>
                  {current !== null && (
                    <Button
                      variant="subtle"
                      color="gray"
                      onClick={() => void submit(null)}
                      disabled={save.isPending}
                    >
                      {t('Turn off')}
                    </Button>
                  )}
                </Group>
              </Stack>
            </form>
          )}
        </Stack>
      )}
    </Paper>
  );
}
