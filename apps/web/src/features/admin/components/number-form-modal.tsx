import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { getCountries } from 'libphonenumber-js/min';
import type { NumberDto } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { currentLocale, useT } from '@/lib/i18n';
import { useConnections } from '../api/connections-api';
import { useSaveNumber } from '../api/numbers-api';
import { toMinor } from '../amount';

interface Values {
  number: string;
  kind: 'long' | 'short';
  country: string | null;
  connection: string | null;
  price: string;
}

const FIELDS = new Set(['number', 'kind', 'country', 'connection', 'monthlyPriceMinor']);

const valuesOf = (n: NumberDto | null): Values => ({
  number: n?.number ?? '',
  kind: n?.kind ?? 'long',
  country: n?.country ?? null,
  connection: n?.connection ?? null,
  price: n ? (n.monthlyPriceMinor / 100).toFixed(2) : '',
});

/**
 * A number for the inventory, or a change to one (its price and connection: the number itself and
 * its country stay). The server's 400 messages go on their fields.
 */
export function NumberFormModal(props: {
  opened: boolean;
  number: NumberDto | null;
  currency: string;
  onClose: () => void;
  onSaved: (n: NumberDto) => void;
}) {
  const { opened, number, currency, onClose, onSaved } = props;
  const t = useT();
  const save = useSaveNumber();
  const connections = useConnections();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Values>({ initialValues: valuesOf(number) });
  const locale = currentLocale();
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    return getCountries()
      .map((cc) => ({ value: cc, label: `${names.of(cc) ?? cc} (${cc})` }))
      .sort((a, b) => a.label.localeCompare(b.label, locale));
  }, [locale]);

  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(number));
      form.resetDirty();
      form.clearErrors();
      setError(null);
    }
    // Reset only when the modal opens or its number changes.
  }, [opened, number]);

  const submit = async (v: Values) => {
    setError(null);
    form.clearErrors();
    const minor = toMinor(v.price);
    if (minor === null) {
      form.setFieldError('price', t('Give the monthly price as an amount, e.g. 2.50'));
      return;
    }
    try {
      const saved = number
        ? await save.mutateAsync({
            id: number.id,
            body: { connection: v.connection, monthlyPriceMinor: minor },
          })
        : await save.mutateAsync({
            id: null,
            body: {
              number: v.number,
              kind: v.kind,
              country: v.country ?? '',
              connection: v.connection,
              monthlyPriceMinor: minor,
            },
          });
      onSaved(saved);
    } catch (e) {
      if (e instanceof HttpError && e.status === 400 && Object.keys(e.fieldErrors).length) {
        const onForm: Record<string, string> = {};
        const elsewhere: string[] = [];
        for (const [field, messages] of Object.entries(e.fieldErrors)) {
          if (FIELDS.has(field)) onForm[field === 'monthlyPriceMinor' ? 'price' : field] = messages.join(' ');
          else elsewhere.push(...messages);
        }
        form.setErrors(onForm);
        setError(elsewhere.length ? elsewhere.join('\n') : t('Check the fields marked in red.'));
        return;
      }
      setError(messageOf(e));
    }
  };

  const connectionOptions = [
    { value: '', label: t('Any connection (routing decides)') },
    ...(connections.data?.items ?? []).map((c) => ({ value: c.name, label: c.name })),
  ];

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={number ? t('Edit number {{number}}', { number: number.number }) : t('Add number')}
      size="lg"
    >
      <form onSubmit={form.onSubmit((v) => void submit(v))} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('Number')}
              description={t('A long code with + and the country code, or a short code')}
              placeholder="+447700900123"
              required
              disabled={number !== null}
              dir="ltr"
              data-autofocus
              {...form.getInputProps('number')}
            />
            <Stack gap={4}>
              <SegmentedControl
                aria-label={t('Type')}
                disabled={number !== null}
                data={[
                  { value: 'long', label: t('Long code') },
                  { value: 'short', label: t('Short code') },
                ]}
                {...form.getInputProps('kind')}
              />
              {typeof form.errors.kind === 'string' && <FormAlert message={form.errors.kind} />}
            </Stack>
            <Select
              label={t('Country')}
              placeholder={t('Choose a country')}
              data={countries}
              searchable
              required
              disabled={number !== null}
              nothingFoundMessage={t('No such country')}
              {...form.getInputProps('country')}
            />
            <Select
              label={t('Connection')}
              description={t('The carrier connection the number is reached through')}
              data={connectionOptions}
              value={form.values.connection ?? ''}
              onChange={(v) => form.setFieldValue('connection', v ? v : null)}
              error={form.errors.connection}
              allowDeselect={false}
            />
            <TextInput
              label={t('Monthly price ({{currency}})', { currency })}
              description={t('Charged to the account when assigned, then every month in advance')}
              placeholder="2.50"
              inputMode="decimal"
              required
              dir="ltr"
              {...form.getInputProps('price')}
            />
          </SimpleGrid>
          {error && <FormAlert message={error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {number ? t('Save') : t('Add number')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
