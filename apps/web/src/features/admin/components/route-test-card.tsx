import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { ROUTE_LANE_VALUES, type RouteTestDto } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { ResponsiveTable } from '@/components/responsive-table';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useTestRoute } from '../api/routes-api';
import { rich, SectionHeader } from './common';
import { LANE_LABELS, MONO, STRATEGY_LABELS } from './route-form-modal';

type Fields = 'to' | 'accountId' | 'lane' | 'sender';

function Result({ result }: { result: RouteTestDto }) {
  const t = useT();
  if (!result.route)
    return (
      <Alert
        variant="light"
        color={result.fallback ? 'blue' : 'red'}
        title={
          result.fallback
            ? t('No route: fallback connection {{name}}', { name: result.fallback })
            : t('No route and no fallback')
        }
        data-testid="route-test-result"
      >
        {result.reason}
      </Alert>
    );
  const strategy = result.route.strategy as keyof typeof STRATEGY_LABELS;
  return (
    <Stack gap="xs" data-testid="route-test-result">
      <Alert
        variant="light"
        color="teal"
        title={t('Route {{name}} ({{prefix}})', { name: result.route.name, prefix: result.route.prefix })}
      >
        <Text size="sm">
          {STRATEGY_LABELS[strategy] ? t(STRATEGY_LABELS[strategy]) : result.route.strategy}
          {result.candidates[0] && (
            <>
              {' '}
              ·{' '}
              {rich(t, 'sends through {{connection}}', {
                connection: <b>{result.candidates[0].connection}</b>,
              })}
            </>
          )}
        </Text>
        <Text size="sm" mt={4}>
          {result.reason}
        </Text>
      </Alert>
      <ResponsiveTable minWidth={560} verticalSpacing="xs" data-testid="route-test-candidates">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>{t('Connection')}</Table.Th>
            <Table.Th ta="right">{t('Cost')}</Table.Th>
            <Table.Th>{t('Usable')}</Table.Th>
            <Table.Th>{t('Why here')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {result.candidates.map((c, i) => (
            <Table.Tr key={c.connection}>
              <Table.Td data-label="#">{i + 1}</Table.Td>
              <Table.Td data-label={t('Connection')} ff="monospace">
                {c.connection}
              </Table.Td>
              <Table.Td data-label={t('Cost')} ta="right" ff="monospace">
                {c.cost}
              </Table.Td>
              <Table.Td data-label={t('Usable')}>
                <Badge variant="dot" color={c.usable ? 'teal' : 'red'}>
                  {c.usable ? t('Usable') : t('Not usable')}
                </Badge>
              </Table.Td>
              <Table.Td data-label={t('Why here')}>
                <Text size="sm">{c.reason}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ResponsiveTable>
    </Stack>
  );
}

/** "Test a number": the decision the gateway would take now, with every candidate and why. */
export function RouteTestCard() {
  const t = useT();
  const test = useTestRoute();
  const [values, setValues] = useState<Record<Fields, string>>({
    to: '',
    accountId: '',
    lane: '',
    sender: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const set = (k: Fields) => (v: string) => setValues((old) => ({ ...old, [k]: v }));

  const run = async () => {
    setErrors({});
    setError(null);
    try {
      await test.mutateAsync({
        to: values.to.trim(),
        accountId: values.accountId.trim() || undefined,
        lane: values.lane || undefined,
        sender: values.sender.trim() || undefined,
      });
    } catch (e) {
      if (e instanceof HttpError && Object.keys(e.fieldErrors).length) {
        const mine: Partial<Record<Fields, string>> = {};
        const other: string[] = [];
        for (const [f, m] of Object.entries(e.fieldErrors)) {
          if (f in values) mine[f as Fields] = m.join(' ');
          else other.push(...m);
        }
        setErrors(mine);
        setError(other.length ? other.join('\n') : null);
      } else setError(messageOf(e));
    }
  };

  return (
    <Paper withBorder radius="md">
      <SectionHeader
        title={t('Test a number')}
        hint={t('The route and the order of connections a message would get now')}
      />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <Stack px="md" pb="md" gap="sm">
          <Group gap="sm" align="flex-start" wrap="wrap">
            <TextInput
              label={t('Number')}
              placeholder="+447700900123"
              required
              styles={MONO}
              value={values.to}
              error={errors.to}
              onChange={(e) => set('to')(e.currentTarget.value)}
              style={{ flex: '1 1 180px' }}
            />
            <TextInput
              label={t('Account id')}
              placeholder={t('Optional')}
              styles={MONO}
              value={values.accountId}
              error={errors.accountId}
              onChange={(e) => set('accountId')(e.currentTarget.value)}
              style={{ flex: '2 1 260px' }}
            />
            <Select
              label={t('Lane')}
              data={[
                { value: '', label: t('Any lane') },
                ...ROUTE_LANE_VALUES.map((l) => ({ value: l, label: t(LANE_LABELS[l]) })),
              ]}
              value={values.lane}
              error={errors.lane}
              allowDeselect={false}
              onChange={(v) => set('lane')(v ?? '')}
              style={{ flex: '1 1 120px' }}
            />
            <TextInput
              label={t('Sender')}
              placeholder={t('Optional')}
              maxLength={15}
              value={values.sender}
              error={errors.sender}
              onChange={(e) => set('sender')(e.currentTarget.value)}
              style={{ flex: '1 1 130px' }}
            />
          </Group>
          <Group>
            <Button type="submit" loading={test.isPending}>
              {t('Test')}
            </Button>
          </Group>
          <FormAlert message={error} />
          {test.data && !error && Object.keys(errors).length === 0 && <Result result={test.data} />}
        </Stack>
      </form>
    </Paper>
  );
}
