import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { ROUTE_LANE_VALUES, ROUTE_STRATEGY_VALUES, type RouteDto, type RouteInput } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { IconPlus, IconTrash } from '@/components/icons';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useRatePlans } from '../api/admin-api';
import { useSaveRoute } from '../api/routes-api';

/** Monospace for what is typed (prefixes, ids, costs), not for the field's label and messages. */
export const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** English text, each a key: shown through `t(STRATEGY_LABELS[s])`. */
export const STRATEGY_LABELS: Record<RouteInput['strategy'], string> = {
  priority: 'Priority (failover in order)',
  weighted: 'Weighted (share by weight)',
  least_cost: 'Least cost (cheapest first)',
  quality: 'Quality (best delivery first)',
};

/** A strategy in a table's badge, each a key too: "least cost". */
export const STRATEGY_SHORT: Record<RouteInput['strategy'], string> = {
  priority: 'priority',
  weighted: 'weighted',
  least_cost: 'least cost',
  quality: 'quality',
};

/** English text, each a key: shown through `t(LANE_LABELS[l])`. */
export const LANE_LABELS: Record<(typeof ROUTE_LANE_VALUES)[number], string> = {
  otp: 'OTP',
  single: 'Single',
  bulk: 'Bulk',
};

interface EntryValues {
  connection: string;
  cost: string;
  priority: number | string;
  weight: number | string;
}

interface RouteFormValues {
  name: string;
  prefix: string;
  accountId: string;
  ratePlanId: string;
  lane: string;
  sender: string;
  strategy: RouteInput['strategy'];
  qualityFloor: number | string;
  costCeiling: string;
  entries: EntryValues[];
  reason: string;
}

const blankEntry = (priority = 0): EntryValues => ({ connection: '', cost: '', priority, weight: 1 });

const valuesOf = (r: RouteDto | null): RouteFormValues => ({
  name: r?.name ?? '',
  prefix: r?.prefix ?? '+',
  accountId: r?.accountId ?? '',
  ratePlanId: r?.ratePlanId ?? '',
  lane: r?.lane ?? '',
  sender: r?.sender ?? '',
  strategy: r?.strategy ?? 'priority',
  qualityFloor: r?.qualityFloor ?? '',
  costCeiling: r?.costCeiling ?? '',
  entries: r?.entries.map((e) => ({ ...e })) ?? [blankEntry()],
  reason: '',
});

/** What the API receives: empty optional fields as null, numbers as numbers (the server validates). */
function toInput(v: RouteFormValues): RouteInput {
  const quality = v.strategy === 'quality';
  return {
    name: v.name,
    prefix: v.prefix,
    accountId: v.accountId.trim() || null,
    ratePlanId: v.ratePlanId || null,
    lane: v.lane || null,
    sender: v.sender.trim() || null,
    strategy: v.strategy,
    qualityFloor: v.qualityFloor !== '' ? Number(v.qualityFloor) : null,
    costCeiling: quality && v.costCeiling.trim() ? v.costCeiling.trim() : null,
    entries: v.entries.map((e) => ({
      connection: e.connection,
      cost: e.cost,
      priority: e.priority === '' ? 0 : Number(e.priority),
      weight: e.weight === '' ? 1 : Number(e.weight),
    })),
    reason: v.reason,
  };
}

const FIELDS = new Set<string>([
  'name',
  'prefix',
  'accountId',
  'ratePlanId',
  'lane',
  'sender',
  'strategy',
  'qualityFloor',
  'costCeiling',
  'entries',
  'reason',
]);

/**
 * A new route or a change to one: its prefix and filters, its strategy, its connections (chosen
 * from those the API lists) with cost, priority and weight, and the reason the audit log keeps.
 * The server's 400 messages go on their fields; a twin route (409) is said above the buttons.
 */
export function RouteFormModal(props: {
  opened: boolean;
  route: RouteDto | null;
  connections: string[];
  onClose: () => void;
  onSaved: (route: RouteDto) => void;
}) {
  const t = useT();
  const { opened, route, connections, onClose, onSaved } = props;
  const save = useSaveRoute();
  const plans = useRatePlans();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<RouteFormValues>({ initialValues: valuesOf(route) });

  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(route));
      form.resetDirty();
      form.clearErrors();
      setError(null);
    }
    // Reset only when the modal opens or its route changes (not on every render of the form).
  }, [opened, route]);

  const submit = async (v: RouteFormValues) => {
    setError(null);
    form.clearErrors();
    try {
      const saved = await save.mutateAsync({ id: route?.id ?? null, input: toInput(v) });
      onSaved(saved);
    } catch (e) {
      if (e instanceof HttpError && e.status === 409) {
        setError(e.message);
        return;
      }
      if (e instanceof HttpError && Object.keys(e.fieldErrors).length) {
        const onForm: Record<string, string> = {};
        const elsewhere: string[] = [];
        for (const [field, messages] of Object.entries(e.fieldErrors)) {
          const root = field.split('.')[0] ?? field;
          if (FIELDS.has(root)) onForm[field] = messages.join(' ');
          else elsewhere.push(...messages);
        }
        form.setErrors(onForm);
        setError(elsewhere.length ? elsewhere.join('\n') : t('Check the fields marked in red.'));
        return;
      }
      setError(messageOf(e));
    }
  };

  const quality = form.values.strategy === 'quality';
  const weighted = form.values.strategy === 'weighted';
  const used = new Set(form.values.entries.map((e) => e.connection));
  const planOptions = [
    { value: '', label: t('Any rate plan') },
    ...(plans.data ?? []).map((p) => ({ value: p.id, label: p.name })),
  ];
  const entriesError = form.errors.entries;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={route ? t('Edit route “{{name}}”', { name: route.name }) : t('New route')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('Close') }}
      centered
    >
      <form noValidate onSubmit={form.onSubmit((v) => void submit(v))}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('Name')} required data-autofocus {...form.getInputProps('name')} />
            <TextInput
              label={t('Prefix')}
              description={t('+ and digits; + alone matches every number')}
              required
              styles={MONO}
              {...form.getInputProps('prefix')}
            />
          </SimpleGrid>
          <Text size="sm" fw={600} mt="xs">
            {t('Filters (optional: the most specific matching route wins)')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('Account id')}
              placeholder={t('Any account')}
              styles={MONO}
              {...form.getInputProps('accountId')}
            />
            <Select
              label={t('Rate plan')}
              data={planOptions}
              allowDeselect={false}
              {...form.getInputProps('ratePlanId')}
            />
            <Select
              label={t('Lane')}
              data={[
                { value: '', label: t('Any lane') },
                ...ROUTE_LANE_VALUES.map((l) => ({ value: l, label: t(LANE_LABELS[l]) })),
              ]}
              allowDeselect={false}
              {...form.getInputProps('lane')}
            />
            <TextInput
              label={t('Sender')}
              placeholder={t('Any sender')}
              maxLength={15}
              {...form.getInputProps('sender')}
            />
          </SimpleGrid>
          <Select
            label={t('Strategy')}
            required
            data={ROUTE_STRATEGY_VALUES.map((s) => ({ value: s, label: t(STRATEGY_LABELS[s]) }))}
            allowDeselect={false}
            {...form.getInputProps('strategy')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <NumberInput
              label={t('Delivery floor')}
              description={t('Below this delivered share (0–1) a connection leaves the rotation')}
              min={0}
              max={1}
              step={0.05}
              decimalScale={3}
              {...form.getInputProps('qualityFloor')}
            />
            {quality && (
              <TextInput
                label={t('Cost ceiling')}
                description={t('Connections costing more per segment go last')}
                placeholder="0.0060"
                styles={MONO}
                {...form.getInputProps('costCeiling')}
              />
            )}
          </SimpleGrid>
          <Group justify="space-between" mt="xs">
            <Text size="sm" fw={600} id="route-entries-label">
              {t('Connections')}
            </Text>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPlus />}
              disabled={form.values.entries.length >= 20}
              onClick={() => form.insertListItem('entries', blankEntry(form.values.entries.length))}
            >
              {t('Add connection')}
            </Button>
          </Group>
          <Stack gap="xs" role="group" aria-labelledby="route-entries-label">
            {form.values.entries.map((entry, i) => (
              <Group
                key={i}
                gap="xs"
                align="flex-start"
                wrap="wrap"
                data-testid="route-entry"
                style={{ borderBottom: '1px solid var(--mantine-color-default-border)', paddingBottom: 8 }}
              >
                <Select
                  label={t('Connection {{number}}', { number: i + 1 })}
                  placeholder={t('Choose')}
                  data={connections.map((c) => ({
                    value: c,
                    label: c,
                    disabled: c !== entry.connection && used.has(c),
                  }))}
                  allowDeselect={false}
                  style={{ flex: '2 1 160px' }}
                  {...form.getInputProps(`entries.${i}.connection`)}
                />
                <TextInput
                  label={t('Cost per segment')}
                  placeholder="0.0042"
                  styles={MONO}
                  style={{ flex: '1 1 110px' }}
                  {...form.getInputProps(`entries.${i}.cost`)}
                />
                <NumberInput
                  label={t('Priority')}
                  description={t('lowest first')}
                  min={0}
                  max={1000}
                  allowDecimal={false}
                  style={{ flex: '1 1 90px' }}
                  {...form.getInputProps(`entries.${i}.priority`)}
                />
                <NumberInput
                  label={t('Weight')}
                  description={weighted ? t('share of traffic') : t('weighted only')}
                  min={0}
                  max={1000}
                  allowDecimal={false}
                  style={{ flex: '1 1 90px' }}
                  {...form.getInputProps(`entries.${i}.weight`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={24}
                  size="lg"
                  aria-label={t('Remove connection {{number}}', { number: i + 1 })}
                  disabled={form.values.entries.length <= 1}
                  onClick={() => form.removeListItem('entries', i)}
                >
                  <IconTrash />
                </ActionIcon>
              </Group>
            ))}
            {entriesError && (
              <Text size="sm" c="red" role="alert">
                {entriesError}
              </Text>
            )}
          </Stack>
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
              {route ? t('Save changes') : t('Create route')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
