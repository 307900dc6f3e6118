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
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm<KeyFormValues>({
    initialValues: valuesOf(props.initial),
    validate: {
      name: (v) => (v.trim() ? null : 'Name the key, e.g. the system that will use it'),
      scopes: (v) => (v.length ? null : 'Choose at least one scope'),
      expiresAt: (v) => (v && !dayjs(v).isAfter(dayjs()) ? 'Choose a time in the future' : null),
      webhookUrl: (v) =>
        v.trim() && !/^https?:\/\/\S+$/.test(v.trim()) ? 'Enter a full http:// or https:// URL' : null,
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
            label="Name"
            description="Which system uses this key"
            required
            maxLength={80}
            {...form.getInputProps('name')}
          />
          <Checkbox.Group
            label="Scopes"
            description="What the key may do"
            required
            {...form.getInputProps('scopes')}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
              {API_SCOPES.map((s) => (
                <Checkbox key={s} value={s} label={`${API_SCOPE_LABELS[s]} (${s})`} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <TagsInput
            label="Allowed IP addresses"
            description="Addresses or CIDR ranges, IPv4 or IPv6 (press Enter after each). Empty: any address."
            placeholder="203.0.113.0/24"
            clearable
            {...form.getInputProps('ipAllowlist')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="datetime-local"
              label="Expires"
              description="Empty: never"
              {...form.getInputProps('expiresAt')}
            />
            <NumberInput
              label="Rate limit (requests per minute)"
              description="Empty: the server default"
              min={1}
              max={API_KEY_RATE_LIMIT_MAX}
              allowDecimal={false}
              thousandSeparator=","
              {...form.getInputProps('rateLimitPerMinute')}
            />
          </SimpleGrid>
          <TextInput
            label="Default delivery webhook URL"
            description="Final statuses of messages this key sends through /v1/messages are POSTed here (signed), unless a request names its own callbackUrl."
            placeholder="https://example.com/wren/webhook"
            {...form.getInputProps('webhookUrl')}
          />
          <FormAlert message={error} />
          <Text size="xs" c="dimmed">
            Changes apply on every server within a few seconds.
          </Text>
          <Group>
            <Button type="submit" loading={saving}>
              {props.submitLabel}
            </Button>
            <Button variant="default" onClick={props.onCancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
