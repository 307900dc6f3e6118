import { useState } from 'react';
import {
  Autocomplete,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  SMPP_BIND_MODES,
  smppAccountInputSchema,
  smppAccountUpdateSchema,
  type SmppAccountDto,
  type SmppAccountInput,
  type SmppAccountUpdate,
  type SmppBindMode,
  type SmppIdNotation,
} from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { useSenderIds } from '@/features/sender-ids';
import { applySubmitError } from '@/lib/form-errors';
import { HttpError } from '@/lib/http/http-error';
import { translate, useT } from '@/lib/i18n';

/** English; shown through `t` (they are keys of locales/smpp). */
export const BIND_MODE_LABELS: Record<SmppBindMode, string> = {
  tx: 'Transmitter',
  rx: 'Receiver',
  trx: 'Transceiver',
};

const BIND_MODE_HINTS: Record<SmppBindMode, string> = {
  tx: 'bind_transmitter: submits only',
  rx: 'bind_receiver: receipts and inbound messages only',
  trx: 'bind_transceiver: both on one connection',
};

export interface SmppFormValues {
  systemId: string;
  name: string;
  ipAllowlist: string[];
  maxBinds: number | string;
  bindModes: SmppBindMode[];
  throughputPerSecond: number | string;
  windowSize: number | string;
  defaultSender: string;
  idNotation: SmppIdNotation;
}

const NUMBER_FIELDS = ['maxBinds', 'throughputPerSecond', 'windowSize'] as const;

const valuesOf = (a?: SmppAccountDto): SmppFormValues => ({
  systemId: a?.systemId ?? '',
  name: a?.name ?? '',
  ipAllowlist: a?.ipAllowlist ?? [],
  maxBinds: a?.maxBinds ?? 2,
  bindModes: a?.bindModes ?? ['tx', 'rx', 'trx'],
  throughputPerSecond: a?.throughputPerSecond ?? 50,
  windowSize: a?.windowSize ?? 10,
  defaultSender: a?.defaultSender ?? '',
  idNotation: a?.idNotation ?? 'decimal',
});

/** What the API receives for a new SMPP account. */
export function toSmppInput(v: SmppFormValues): SmppAccountInput {
  return { systemId: v.systemId.trim(), ...toSmppUpdate(v) };
}

/** What the API receives for a change (every editable field; the system_id stays). */
export function toSmppUpdate(v: SmppFormValues) {
  return {
    name: v.name.trim(),
    ipAllowlist: v.ipAllowlist.map((ip) => ip.trim()).filter(Boolean),
    maxBinds: Number(v.maxBinds),
    bindModes: SMPP_BIND_MODES.filter((m) => v.bindModes.includes(m)),
    throughputPerSecond: Number(v.throughputPerSecond),
    windowSize: Number(v.windowSize),
    defaultSender: v.defaultSender.trim() || null,
    idNotation: v.idNotation,
  } satisfies SmppAccountUpdate;
}

/** The contract's schema, as messages on the form's fields (an address in the list: on the list). */
export function validateSmpp(values: SmppFormValues, creating: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of NUMBER_FIELDS) {
    if (values[field] === '' || Number.isNaN(Number(values[field])))
      errors[field] = translate('Enter a number');
  }
  const result = creating
    ? smppAccountInputSchema.safeParse(toSmppInput(values))
    : smppAccountUpdateSchema.safeParse(toSmppUpdate(values));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '');
      const message =
        field === 'ipAllowlist' && typeof issue.path[1] === 'number'
          ? `${values.ipAllowlist[issue.path[1]]}: ${issue.message}`
          : issue.message;
      errors[field] ??= message;
    }
  }
  return errors;
}

/**
 * Create and edit an SMPP account: system_id (on creation only), name, allowed addresses, binds,
 * bind modes, throughput, window, default sender and the message id notation.
 */
export function SmppForm(props: {
  initial?: SmppAccountDto;
  submitLabel: string;
  onSubmit: (values: SmppFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const t = useT();
  const creating = !props.initial;
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const senderIds = useSenderIds();
  const approved = (senderIds.data ?? []).filter((s) => s.status === 'approved').map((s) => s.value);
  const form = useForm<SmppFormValues>({
    initialValues: valuesOf(props.initial),
    // On submit only: a message appearing on blur moves the button under a pointer mid-click.
    validate: (values) => validateSmpp(values, creating),
  });

  const submit = form.onSubmit(async (values) => {
    setError(null);
    setSaving(true);
    try {
      await props.onSubmit(values);
    } catch (e) {
      // A taken system_id is the field's problem (409 without field errors).
      if (creating && e instanceof HttpError && e.status === 409 && /system_id/i.test(e.message)) {
        form.setFieldError('systemId', e.message);
      } else {
        setError(applySubmitError(form, e));
      }
    } finally {
      setSaving(false);
    }
  });

  return (
    <Paper withBorder radius="md" p="lg" maw={760}>
      <form
        onSubmit={submit}
        noValidate
        aria-label={creating ? t('New SMPP account') : t('SMPP account settings')}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {creating ? (
              <TextInput
                label={t('System ID')}
                description={t('The login (system_id): 3-15 letters, digits, . _ -')}
                required
                maxLength={15}
                autoComplete="off"
                spellCheck={false}
                {...form.getInputProps('systemId')}
              />
            ) : null}
            <TextInput
              label={t('Name')}
              description={t('Who or what binds with it')}
              required
              maxLength={80}
              {...form.getInputProps('name')}
            />
          </SimpleGrid>
          <TagsInput
            label={t('Allowed IP addresses')}
            description={t(
              'Addresses or CIDR ranges, IPv4 or IPv6 (press Enter after each). Empty: any address.',
            )}
            placeholder="203.0.113.0/24"
            clearable
            splitChars={[',', ' ', '\n']}
            {...form.getInputProps('ipAllowlist')}
          />
          <Checkbox.Group
            label={t('Bind modes')}
            description={t('How the client may bind')}
            required
            {...form.getInputProps('bindModes')}
          >
            <Stack mt="xs" gap="xs">
              {SMPP_BIND_MODES.map((m) => (
                <Checkbox
                  key={m}
                  value={m}
                  label={`${t(BIND_MODE_LABELS[m])} (${m})`}
                  description={t(BIND_MODE_HINTS[m])}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label={t('Max binds')}
              description={t('Open at once, over all servers')}
              required
              min={1}
              max={64}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('maxBinds')}
            />
            <NumberInput
              label={t('Throughput (per second)')}
              description={t('Over it: ESME_RTHROTTLED')}
              required
              min={1}
              max={10_000}
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator=","
              {...form.getInputProps('throughputPerSecond')}
            />
            <NumberInput
              label={t('Window')}
              description={t('Unanswered requests per bind')}
              required
              min={1}
              max={1000}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('windowSize')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Autocomplete
              label={t('Default sender')}
              description={t(
                "Used when a submit_sm's source_addr is empty. Empty: the account's default sender ID.",
              )}
              placeholder={approved[0] ?? t('e.g. ACME')}
              data={approved}
              maxLength={16}
              {...form.getInputProps('defaultSender')}
            />
            <Radio.Group
              label={t('Message id notation')}
              description={t('How message ids are written to the client')}
              {...form.getInputProps('idNotation')}
            >
              <Group mt="xs">
                <Radio value="decimal" label={t('Decimal (123456)')} />
                <Radio value="hex" label={t('Hex (1E240)')} />
              </Group>
            </Radio.Group>
          </SimpleGrid>
          <FormAlert message={error} />
          {!creating && (
            <Text size="xs" c="dimmed">
              {t(
                "Saving closes the account's live binds on every server; clients bind again with the new settings.",
              )}
            </Text>
          )}
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
