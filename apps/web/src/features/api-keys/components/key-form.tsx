import { useState } from 'react';
import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  API_KEY_RATE_LIMIT_MAX,
  API_SCOPE_LABELS,
  API_SCOPES,
  type ApiKeyDto,
  type ApiScope,
} from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { dayjs } from '@/lib/dayjs';
import { applySubmitError } from '@/lib/form-errors';
import { useT } from '@/lib/i18n';

export interface KeyFormValues {
  name: string;
  scopes: ApiScope[];
  ipAllowlist: string[];
  /** `YYYY-MM-DDTHH:mm` in the browser's zone, or empty. */
  expiresAt: string;
  rateLimitPerMinute: number | string;
  webhookUrl: string;
}

/** What the API receives from the form's values. */
export function toKeyInput(v: KeyFormValues) {
  return {
    name: v.name.trim(),
    scopes: v.scopes,
    ipAllowlist: v.ipAllowlist,
    expiresAt: v.expiresAt ? dayjs(v.expiresAt).toISOString() : null,
    rateLimitPerMinute: v.rateLimitPerMinute === '' ? null : Number(v.rateLimitPerMinute),
    webhookUrl: v.webhookUrl.trim() || null,
  };
}

const valuesOf = (key?: ApiKeyDto): KeyFormValues => ({
  name: key?.name ?? '',
  scopes: key?.scopes ?? ['sms:send', 'sms:read', 'balance:read'],
  ipAllowlist: key?.ipAllowlist ?? [],
  expiresAt: key?.expiresAt ? dayjs(key.expiresAt).format('YYYY-MM-DDTHH:mm') : '',
  rateLimitPerMinute: key?.rateLimitPerMinute ?? '',
  webhookUrl: key?.webhookUrl ?? '',
});

/** Create and edit an API key: name, scopes, allowed addresses, expiry, rate limit, webhook URL. */
export function KeyForm(props: {
  initial?: ApiKeyDto;
  submitLabel: string;
  onSubmit: (values: KeyFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm<KeyFormValues>({
    initialValues: valuesOf(props.initial),
    validate: {
      name: (v) => (v.trim() ? null : t('Name the key, e.g. the system that will use it')),
      scopes: (v) => (v.length ? null : t('Choose at least one scope')),
      expiresAt: (v) => (v && !dayjs(v).isAfter(dayjs()) ? t('Choose a time in the future') : null),
      webhookUrl: (v) =>
        v.trim() && !/^https?:\/\/\S+$/.test(v.trim()) ? t('Enter a full http:// or https:// URL') : null,
    },
  });

  const submit = form.onSubmit(async (values) => {
    setError(null);
    setSaving(true);
    try {
      await props.onSubmit(values);
    } catch (e) {
      setError(applySubmitError(form, e));
    } finally {
      setSaving(false);
    }
  });

  return (
    <Paper withBorder radius="md" p="lg" maw={760}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('Name')}
            description={t('Which system uses this key')}
            required
            maxLength={80}
            {...form.getInputProps('name')}
          />
          <Checkbox.Group
            label={t('Scopes')}
            description={t('What the key may do')}
            required
            {...form.getInputProps('scopes')}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
              {API_SCOPES.map((s) => (
                <Checkbox key={s} value={s} label={`${t(API_SCOPE_LABELS[s])} (${s})`} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <TagsInput
            label={t('Allowed IP addresses')}
            description={t(
              'Addresses or CIDR ranges, IPv4 or IPv6 (press Enter after each). Empty: any address.',
            )}
            placeholder="203.0.113.0/24"
            clearable
            {...form.getInputProps('ipAllowlist')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="datetime-local"
              label={t('Expires')}
              description={t('Empty: never')}
              {...form.getInputProps('expiresAt')}
            />
            <NumberInput
              label={t('Rate limit (requests per minute)')}
              description={t('Empty: the server default')}
              min={1}
              max={API_KEY_RATE_LIMIT_MAX}
              allowDecimal={false}
              thousandSeparator=","
              {...form.getInputProps('rateLimitPerMinute')}
            />
          </SimpleGrid>
          <TextInput
            label={t('Default delivery webhook URL')}
            description={t(
              'Final statuses of messages this key sends through /v1/messages are POSTed here (signed), unless a request names its own callbackUrl.',
            )}
            placeholder="https://example.com/wren/webhook"
            {...form.getInputProps('webhookUrl')}
          />
          <FormAlert message={error} />
          <Text size="xs" c="dimmed">
            {t('Changes apply on every server within a few seconds.')}
          </Text>
          <Group>
            <Button type="submit" loading={saving}>
              {props.submitLabel}
            </Button>
            <Button variant="default" onClick={props.onCancel}>
              {t('Cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
