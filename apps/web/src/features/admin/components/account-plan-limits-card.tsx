import { useEffect, useState } from 'react';
import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Title,
} from '@mantine/core';
import type { AdminAccountDetail } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useAssignPlan, useRatePlans, useSetLimits } from '../api/admin-api';
import { formatNumber } from '@/lib/format';

/** The account's rate plan, and its sending limits: rate, daily cap and allowed countries. */
export function AccountPlanLimitsCard({ account }: { account: AdminAccountDetail }) {
  const t = useT();
  const plans = useRatePlans();
  const assign = useAssignPlan(account.id);
  const setLimits = useSetLimits(account.id);
  const [plan, setPlan] = useState<string>(account.ratePlanId ?? '');
  const [tps, setTps] = useState<string | number>(account.limits.maxPerSecond ?? '');
  const [cap, setCap] = useState<string | number>(account.limits.dailyCap ?? '');
  const [countries, setCountries] = useState<string[]>(account.limits.allowedCountries ?? []);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setPlan(account.ratePlanId ?? ''), [account.ratePlanId]);

  const savePlan = async () => {
    setError(null);
    try {
      await assign.mutateAsync(plan || null);
      toast.success(t('Rate plan assigned.'));
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const saveLimits = async () => {
    setError(null);
    const bad = countries.find((c) => !/^[A-Z]{2}$/.test(c));
    if (bad) return setError(t('"{{code}}" is not a two-letter country code (GB, US)', { code: bad }));
    try {
      await setLimits.mutateAsync({
        maxPerSecond: tps === '' ? null : Number(tps),
        dailyCap: cap === '' ? null : Number(cap),
        allowedCountries: countries.length ? countries : null,
      });
      toast.success(t('Limits saved.'));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const defaultPlan = plans.data?.find((p) => p.isDefault);
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        {t('Rate plan and limits')}
      </Title>
      <Stack gap="sm">
        <Group align="flex-end" gap="sm">
          <Select
            label={t('Rate plan')}
            flex={1}
            value={plan}
            onChange={(v) => setPlan(v ?? '')}
            data={[
              {
                value: '',
                label: defaultPlan ? t('Default ({{name}})', { name: defaultPlan.name }) : t('Default'),
              },
              ...(plans.data ?? []).map((p) => ({ value: p.id, label: `${p.name} · ${p.currency}` })),
            ]}
            allowDeselect={false}
          />
          <Button
            variant="default"
            onClick={() => void savePlan()}
            loading={assign.isPending}
            disabled={plan === (account.ratePlanId ?? '')}
          >
            {t('Assign')}
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('Messages per second')}
            description={t('Sends are paced to this rate; other accounts are not slowed')}
            placeholder={t('No limit')}
            min={1}
            max={10000}
            allowDecimal={false}
            value={tps}
            onChange={setTps}
          />
          <NumberInput
            label={t('Daily cap (messages)')}
            description={
              account.acceptedToday === null
                ? t('Messages accepted per UTC day; a larger send is refused')
                : t('{{used}} of {{cap}} used today (UTC)', {
                    used: formatNumber(account.acceptedToday),
                    cap: formatNumber(account.limits.dailyCap ?? 0),
                  })
            }
            placeholder={t('No cap')}
            min={0}
            allowDecimal={false}
            value={cap}
            onChange={setCap}
          />
        </SimpleGrid>
        <TagsInput
          label={t('Allowed countries')}
          description={t(
            'Two-letter codes; sends to other countries are refused. Leave empty to allow every country',
          )}
          placeholder="GB, US…"
          value={countries}
          onChange={(v) => setCountries(v.map((c) => c.trim().toUpperCase()))}
          splitChars={[',', ' ']}
        />
        <FormAlert message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void saveLimits()} loading={setLimits.isPending}>
            {t('Save limits')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
