import { useState } from 'react';
import { useT } from '@/lib/i18n';
import { ActionIcon, Button, Group, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { prefixRateSchema, type PrefixRate } from '@wren/contracts';
import { IconTrash } from '@/components/icons';

interface PrefixRow {
  key: number;
  prefix: string;
  perMinute: number | string;
}

/**
 * Delivery shaping of a campaign (issue 41 item 3), beside its send rate: batches with a pause
 * between them, and a rate per destination prefix (a carrier's network). `value` is what the
 * campaign is created with; `validate` answers the fields' messages.
 */
export function useDeliveryShaping() {
  const t = useT();
  const [batched, setBatched] = useState(false);
  const [batchSize, setBatchSize] = useState<number | string>(1000);
  const [pauseMinutes, setPauseMinutes] = useState<number | string>(5);
  const [rows, setRows] = useState<PrefixRow[]>([]);
  const [seq, setSeq] = useState(0);

  const prefixRates: PrefixRate[] = rows
    .filter((r) => r.prefix.trim() && typeof r.perMinute === 'number')
    .map((r) => ({ prefix: r.prefix.trim(), perMinute: r.perMinute as number }));
  const value = {
    ...(batched && typeof batchSize === 'number' && typeof pauseMinutes === 'number'
      ? { batchSize, batchPauseSeconds: Math.round(pauseMinutes * 60) }
      : {}),
    ...(prefixRates.length ? { prefixRates } : {}),
  };

  const validate = (): Record<string, string> => {
    const errors: Record<string, string> = {};
    if (batched) {
      if (typeof batchSize !== 'number' || batchSize < 1) errors.batchSize = t('At least 1 message a batch');
      if (typeof pauseMinutes !== 'number' || pauseMinutes <= 0)
        errors.batchPauseSeconds = t('Give the pause between batches');
      else if (pauseMinutes * 60 > 86_400) errors.batchPauseSeconds = t('At most a day (1,440 minutes)');
    }
    const seen = new Set<string>();
    rows.forEach((r, i) => {
      const prefix = r.prefix.trim();
      if (!prefix && r.perMinute === '') return;
      const parsed = prefixRateSchema.safeParse({ prefix, perMinute: r.perMinute });
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          errors[`prefixRates.${i}.${String(issue.path[0])}`] ??= issue.message;
        return;
      }
      const digits = prefix.replace(/^\+/, '');
      if (seen.has(digits))
        errors[`prefixRates.${i}.prefix`] = t('+{{prefix}} is given twice', { prefix: digits });
      seen.add(digits);
    });
    return errors;
  };

  return {
    batched,
    setBatched,
    batchSize,
    setBatchSize,
    pauseMinutes,
    setPauseMinutes,
    rows,
    add: () => {
      setRows((rs) => [...rs, { key: seq, prefix: '', perMinute: '' }]);
      setSeq((s) => s + 1);
    },
    update: (key: number, patch: Partial<Omit<PrefixRow, 'key'>>) =>
      setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r))),
    remove: (key: number) => setRows((rs) => rs.filter((r) => r.key !== key)),
    value,
    validate,
  };
}

export type DeliveryShaping = ReturnType<typeof useDeliveryShaping>;

/** The shaping fields of the composer's schedule step. */
export function DeliveryShapingFields({
  shaping: s,
  errors,
}: {
  shaping: DeliveryShaping;
  errors: Record<string, string>;
}) {
  const t = useT();
  return (
    <Stack gap="sm">
      <Switch
        label={t('Send in batches')}
        description={t('A batch of messages, then a pause, then the next batch.')}
        checked={s.batched}
        onChange={(e) => s.setBatched(e.currentTarget.checked)}
      />
      {s.batched && (
        <Group align="flex-start" gap="sm">
          <NumberInput
            label={t('Batch size')}
            suffix={t(' messages')}
            min={1}
            max={1_000_000}
            allowDecimal={false}
            value={s.batchSize}
            onChange={s.setBatchSize}
            error={errors.batchSize}
            w={200}
          />
          <NumberInput
            label={t('Pause between batches')}
            suffix={t(' min')}
            min={0.1}
            max={1440}
            decimalScale={1}
            value={s.pauseMinutes}
            onChange={s.setPauseMinutes}
            error={errors.batchPauseSeconds}
            w={200}
          />
        </Group>
      )}
      <div>
        <Text size="sm" fw={500}>
          {t('Rates per network')}
        </Text>
        <Text size="xs" c="dimmed">
          {t(
            'Optional: numbers starting with a prefix go at most this many a minute (the longest prefix counts), so one slow network does not hold the others back.',
          )}
        </Text>
      </div>
      {s.rows.map((r, i) => (
        <Group key={r.key} align="flex-start" gap="sm" data-testid="prefix-rate">
          <TextInput
            label={t('Prefix')}
            placeholder="+447"
            value={r.prefix}
            onChange={(e) => s.update(r.key, { prefix: e.currentTarget.value })}
            error={errors[`prefixRates.${i}.prefix`]}
            dir="ltr"
            w={140}
          />
          <NumberInput
            label={t('At most')}
            suffix={t(' per minute')}
            min={1}
            max={1_000_000}
            allowDecimal={false}
            value={r.perMinute}
            onChange={(v) => s.update(r.key, { perMinute: v })}
            error={errors[`prefixRates.${i}.perMinute`]}
            w={200}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            mt={26}
            aria-label={
              r.prefix
                ? t('Remove the rate for {{prefix}}', { prefix: r.prefix })
                : t('Remove the rate for this prefix')
            }
            onClick={() => s.remove(r.key)}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button variant="light" size="xs" onClick={s.add} disabled={s.rows.length >= 50}>
          {t('Add a network rate')}
        </Button>
      </Group>
    </Stack>
  );
}
