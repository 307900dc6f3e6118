import { Checkbox, Group, Radio, Stack, Switch, Text, TextInput } from '@mantine/core';
import { describeSendWindow, SEND_WINDOW_DAY_LABELS, type SendWindow } from '@wren/contracts';
import { useT } from '@/lib/i18n';

/** A new window's values: Mon–Fri 09:00–20:00. */
export const DEFAULT_SEND_WINDOW: SendWindow = {
  days: [1, 2, 3, 4, 5],
  start: '09:00',
  end: '20:00',
  overnight: false,
};

/** Days (checkboxes), from and to (HH:MM) and overnight: one send window, in the recipients' time. */
export function SendWindowEditor({
  value,
  onChange,
  errors = {},
  disabled,
}: {
  value: SendWindow;
  onChange: (w: SendWindow) => void;
  errors?: Record<string, string | undefined>;
  disabled?: boolean;
}) {
  const t = useT();
  return (
    <Stack gap="xs">
      <Checkbox.Group
        label={t('Days')}
        value={value.days.map(String)}
        onChange={(days) => onChange({ ...value, days: days.map(Number).sort((a, b) => a - b) })}
        error={errors.days}
      >
        <Group gap="sm" mt={4}>
          {SEND_WINDOW_DAY_LABELS.map((label, i) => (
            <Checkbox key={label} value={String(i + 1)} label={t(label)} disabled={disabled} />
          ))}
        </Group>
      </Checkbox.Group>
      <Group align="flex-start" gap="sm">
        <TextInput
          type="time"
          label={t('From')}
          w={130}
          value={value.start}
          onChange={(e) => onChange({ ...value, start: e.currentTarget.value })}
          error={errors.start}
          disabled={disabled}
        />
        <TextInput
          type="time"
          label={t('To')}
          w={130}
          value={value.end}
          onChange={(e) => onChange({ ...value, end: e.currentTarget.value })}
          error={errors.end}
          disabled={disabled}
        />
        <Switch
          mt={30}
          label={t('Overnight (ends the next day)')}
          checked={value.overnight}
          onChange={(e) => onChange({ ...value, overnight: e.currentTarget.checked })}
          disabled={disabled}
        />
      </Group>
    </Stack>
  );
}

export type SendWindowMode = 'account' | 'custom' | 'none';

/**
 * The campaign's window: the account's default, its own, or any hour. The recipients' local time:
 * each number's zone from its prefix, the campaign's zone where it cannot be told.
 */
export function CampaignSendWindowFields({
  mode,
  onModeChange,
  window,
  onWindowChange,
  accountDefault,
  errors,
}: {
  mode: SendWindowMode;
  onModeChange: (m: SendWindowMode) => void;
  window: SendWindow;
  onWindowChange: (w: SendWindow) => void;
  accountDefault: SendWindow | null | undefined;
  errors?: Record<string, string | undefined>;
}) {
  const t = useT();
  return (
    <Stack gap="xs">
      <Radio.Group
        label={t('Send window')}
        description={t(
          "Messages go only in these hours of each recipient's local time; the others wait (not expired, not charged again).",
        )}
        value={mode}
        onChange={(v) => onModeChange(v)}
      >
        <Stack gap={6} mt={6}>
          <Radio
            value="account"
            label={
              accountDefault
                ? t('Use account default ({{window}})', { window: describeSendWindow(accountDefault) })
                : t('Use account default (none set: any hour)')
            }
          />
          <Radio value="custom" label={t('Own window for this campaign')} />
          <Radio value="none" label={t('Any hour')} />
        </Stack>
      </Radio.Group>
      {mode === 'custom' && <SendWindowEditor value={window} onChange={onWindowChange} errors={errors} />}
      {mode === 'custom' && (
        <Text size="xs" c="dimmed">
          {t("{{window}}, recipient's local time", { window: describeSendWindow(window) })}
        </Text>
      )}
    </Stack>
  );
}
