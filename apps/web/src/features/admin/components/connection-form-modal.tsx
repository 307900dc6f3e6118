import { useEffect, useState } from 'react';
import {
  Accordion,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ConnectionCreate, ConnectionDto } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useSaveConnection } from '../api/connections-api';
import {
  ADVANCED,
  FIELDS,
  LANES,
  NOTATIONS,
  toBody,
  valuesOf,
  type ConnectionFormValues,
  type Lane,
} from './connection-form-values';

/** Monospace for what is typed (hosts, ids, prefixes), not for the field's label and messages. */
const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** In a grid, a field's description under its input, so the inputs of a row line up. */
const BELOW: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

/**
 * A new carrier connection or a change to one, in sections: where it is, how it logs in, its
 * sessions, the numbers it takes, and (collapsed) how its receipts are read; with the reason the
 * audit log keeps. The server's 400 messages go on their fields, other refusals above the buttons.
 */
export function ConnectionFormModal(props: {
  opened: boolean;
  connection: ConnectionDto | null;
  onClose: () => void;
  onSaved: (connection: ConnectionDto) => void;
}) {
  const { opened, connection, onClose, onSaved } = props;
  const t = useT();
  const save = useSaveConnection();
  const [error, setError] = useState<string | null>(null);
  const [advanced, setAdvanced] = useState<string | null>(null);
  const form = useForm<ConnectionFormValues>({ initialValues: valuesOf(connection) });

  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(connection));
      form.resetDirty();
      form.clearErrors();
      setError(null);
      setAdvanced(null);
    }
    // Reset only when the modal opens or its connection changes (not on every render of the form).
  }, [opened, connection]);

  const submit = async (v: ConnectionFormValues) => {
    setError(null);
    form.clearErrors();
    try {
      const body = toBody(v);
      const saved = connection
        ? await save.mutateAsync({
            name: connection.name,
            body: { ...body, password: v.password === '' ? null : v.password },
          })
        : await save.mutateAsync({
            name: null,
            body: { ...body, name: v.name, password: v.password } satisfies ConnectionCreate,
          });
      onSaved(saved);
    } catch (e) {
      if (e instanceof HttpError && Object.keys(e.fieldErrors).length && e.status === 400) {
        const onForm: Record<string, string> = {};
        const elsewhere: string[] = [];
        for (const [field, messages] of Object.entries(e.fieldErrors)) {
          const root = field.split('.')[0] ?? field;
          if (FIELDS.has(root)) {
            const key = root === 'prefixes' || root === 'onUnanswered' ? root : field;
            onForm[key] = [onForm[key], ...messages].filter(Boolean).join(' ');
            if (ADVANCED.has(root)) setAdvanced('advanced');
          } else elsewhere.push(...messages);
        }
        form.setErrors(onForm);
        setError(elsewhere.length ? elsewhere.join('\n') : t('Check the fields marked in red.'));
        return;
      }
      setError(messageOf(e));
    }
  };

  const ruleOptions = [
    { value: 'fail', label: t('Fail the message') },
    { value: 'resend', label: t('Send it again') },
  ];
  const receiptOptions = [
    { value: '', label: t('Server default') },
    { value: 'final', label: t('Final (ends the message)') },
    { value: 'interim', label: t('Interim (wait for another receipt)') },
  ];
  const notations = [
    { value: '', label: t('Server default') },
    ...[...new Set([...NOTATIONS, form.values.idNotation].filter(Boolean))].map((n) => ({
      value: n,
      label:
        n === 'auto' ? t('auto (learn it from the receipts)') : /^[0-3]$/.test(n) ? `msg-id-type ${n}` : n,
    })),
  ];
  const laneLabels: Record<Lane, string> = { otp: t('OTP'), single: t('Single'), bulk: t('Bulk') };
  const editing = !!connection;
  const optional = t('Blank: the server default');

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? t('Edit connection “{{name}}”', { name: connection.name }) : t('Add connection')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('Close') }}
      centered
    >
      <form noValidate onSubmit={form.onSubmit((v) => void submit(v))}>
        <Stack gap="md">
          <Fieldset legend={t('Connection')}>
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label={t('Name')}
                  description={
                    editing ? t('A connection keeps its name') : t('Letters, digits, dots, dashes')
                  }
                  required={!editing}
                  readOnly={editing}
                  variant={editing ? 'filled' : 'default'}
                  styles={MONO}
                  data-autofocus={editing ? undefined : true}
                  {...form.getInputProps('name')}
                />
                <Group gap="sm" align="flex-start" wrap="nowrap">
                  <TextInput
                    label={t('Host')}
                    required
                    placeholder="smsc.example.net"
                    styles={MONO}
                    style={{ flex: 3 }}
                    data-autofocus={editing ? true : undefined}
                    {...form.getInputProps('host')}
                  />
                  <NumberInput
                    inputWrapperOrder={BELOW}
                    label={t('Port')}
                    required
                    min={1}
                    max={65535}
                    allowDecimal={false}
                    hideControls
                    styles={MONO}
                    style={{ flex: 1, minWidth: 80 }}
                    {...form.getInputProps('port')}
                  />
                </Group>
              </SimpleGrid>
              <Group gap="xl">
                <Switch
                  label={t('TLS')}
                  description={t('SMPP over TLS')}
                  {...form.getInputProps('tls', { type: 'checkbox' })}
                />
                <Switch
                  label={t('Verify certificate')}
                  description={t('Off: any certificate is accepted')}
                  disabled={!form.values.tls}
                  {...form.getInputProps('tlsVerify', { type: 'checkbox' })}
                />
              </Group>
            </Stack>
          </Fieldset>

          <Fieldset legend={t('Login')}>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <TextInput
                label="system_id"
                required
                maxLength={15}
                styles={MONO}
                autoComplete="off"
                {...form.getInputProps('systemId')}
              />
              <PasswordInput
                inputWrapperOrder={BELOW}
                label={t('Password')}
                description={
                  editing
                    ? connection.passwordSet
                      ? t('Blank keeps the stored password')
                      : t('None stored; blank keeps none')
                    : t('Up to 8 characters')
                }
                maxLength={8}
                autoComplete="new-password"
                {...form.getInputProps('password')}
              />
              <TextInput
                inputWrapperOrder={BELOW}
                label="system_type"
                description={t('Often blank')}
                maxLength={12}
                styles={MONO}
                {...form.getInputProps('systemType')}
              />
            </SimpleGrid>
          </Fieldset>

          <Fieldset legend={t('Sessions')}>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              <NumberInput
                inputWrapperOrder={BELOW}
                label={t('Binds')}
                min={1}
                max={32}
                allowDecimal={false}
                {...form.getInputProps('binds')}
              />
              <Select
                label={t('Bind mode')}
                data={[
                  { value: 'trx', label: t('Transceiver') },
                  { value: 'tx+rx', label: t('Transmitter + receiver') },
                ]}
                allowDeselect={false}
                {...form.getInputProps('bindMode')}
              />
              <NumberInput
                inputWrapperOrder={BELOW}
                label={t('Window')}
                description={t('Submits awaiting a reply, per bind')}
                min={1}
                max={1000}
                allowDecimal={false}
                {...form.getInputProps('window')}
              />
              <NumberInput
                inputWrapperOrder={BELOW}
                label={t('TPS')}
                description={t('Per bind; 0: no limit')}
                min={0}
                max={10000}
                allowDecimal={false}
                {...form.getInputProps('tps')}
              />
            </SimpleGrid>
          </Fieldset>

          <Fieldset legend={t('Routing')}>
            <TagsInput
              label={t('Prefixes')}
              description={t(
                'Numbers no route matches go by these prefixes, such as +44 or +4470. No prefixes: the default connection for numbers no route matches.',
              )}
              placeholder={form.values.prefixes.length ? undefined : '+44, +33'}
              splitChars={[',', ' ', ';']}
              clearable
              styles={{ ...MONO, pill: { direction: 'ltr', unicodeBidi: 'isolate' } }}
              {...form.getInputProps('prefixes')}
            />
          </Fieldset>

          <Accordion variant="contained" value={advanced} onChange={setAdvanced}>
            <Accordion.Item value="advanced">
              <Accordion.Control>{t('Advanced: receipts and flapping')}</Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                    <Select
                      inputWrapperOrder={BELOW}
                      label={t('Message id notation')}
                      description={t('How the SMSC writes message ids')}
                      data={notations}
                      allowDeselect={false}
                      {...form.getInputProps('idNotation')}
                    />
                    <NumberInput
                      inputWrapperOrder={BELOW}
                      label={t('Receipt timeout (minutes)')}
                      description={optional}
                      min={1}
                      max={43200}
                      allowDecimal={false}
                      {...form.getInputProps('receiptTimeoutMinutes')}
                    />
                    <NumberInput
                      inputWrapperOrder={BELOW}
                      label={t('OTP receipt timeout (minutes)')}
                      description={optional}
                      min={1}
                      max={43200}
                      allowDecimal={false}
                      {...form.getInputProps('otpReceiptTimeoutMinutes')}
                    />
                  </SimpleGrid>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                    <Select
                      label={t('ACCEPTD receipts')}
                      data={receiptOptions}
                      allowDeselect={false}
                      {...form.getInputProps('acceptd')}
                    />
                    <Select
                      label={t('UNKNOWN receipts')}
                      data={receiptOptions}
                      allowDeselect={false}
                      {...form.getInputProps('unknownState')}
                    />
                  </SimpleGrid>
                  <Checkbox
                    label={t('Set what happens to a submit the SMSC never answers, per lane')}
                    description={t('Unchecked: the server default')}
                    {...form.getInputProps('laneRules', { type: 'checkbox' })}
                  />
                  {form.values.laneRules && (
                    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                      {LANES.map((lane) => (
                        <Select
                          key={lane}
                          label={t('Unanswered: {{lane}}', { lane: laneLabels[lane] })}
                          data={ruleOptions}
                          allowDeselect={false}
                          {...form.getInputProps(`onUnanswered.${lane}`)}
                        />
                      ))}
                    </SimpleGrid>
                  )}
                  {form.errors.onUnanswered && (
                    <FormAlert
                      message={typeof form.errors.onUnanswered === 'string' ? form.errors.onUnanswered : null}
                    />
                  )}
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                    <NumberInput
                      inputWrapperOrder={BELOW}
                      label={t('Flap seconds')}
                      description={t('A session closed this soon after binding is a flap (0: off)')}
                      min={0}
                      max={3600}
                      allowDecimal={false}
                      {...form.getInputProps('flapSeconds')}
                    />
                    <NumberInput
                      inputWrapperOrder={BELOW}
                      label={t('Warn after flaps')}
                      description={t('Flaps in a row before the log warns')}
                      min={1}
                      max={1000}
                      allowDecimal={false}
                      {...form.getInputProps('flapWarnAfter')}
                    />
                  </SimpleGrid>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>

          <Textarea
            label={t('Reason')}
            description={t('Kept in the audit log with the change')}
            required
            autosize
            minRows={2}
            maxLength={500}
            {...form.getInputProps('reason')}
          />
          <FormAlert message={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {editing ? t('Save changes') : t('Add connection')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
