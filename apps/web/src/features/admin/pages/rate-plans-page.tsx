import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  FileButton,
  Grid,
  Group,
  Modal,
  NavLink,
  Paper,
  Progress,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { ADMIN_API, type ImportResult, type PricePreview, type RatePlanDetail } from '@wren/contracts';
import { ConfirmDeleteModal } from '@/components/confirm-delete-modal';
import { FormAlert } from '@/components/form-alert';
import { IconPlus, IconTrash } from '@/components/icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { downloadFile } from '@/lib/download';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import {
  adminPath,
  previewPrice,
  useCopyPlan,
  useCreatePlan,
  useDeletePlan,
  useImportPrices,
  useMakeDefaultPlan,
  useRatePlan,
  useRatePlans,
  useRenamePlan,
  useSavePrices,
} from '../api/admin-api';
import { EmptyBlock, ErrorBlock, LoadingBlock, SectionHeader } from '../components/common';

interface Row {
  key: number;
  prefix: string;
  price: string;
  countryName: string | null;
}

let rowKey = 0;
const toRows = (plan: RatePlanDetail): Row[] =>
  plan.prices.map((p) => ({
    key: ++rowKey,
    prefix: p.prefix,
    price: (p.priceMinor / 100).toFixed(2),
    countryName: p.countryName,
  }));

/** "0.05" → 5 (two decimals), null when not a price. */
const priceMinor = (text: string) => {
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0') || '0') : null;
};

function NameModal(props: {
  opened: boolean;
  title: string;
  label: string;
  initial: string;
  withCurrency?: boolean;
  loading: boolean;
  onSubmit: (name: string, currency: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.initial);
  const [currency, setCurrency] = useState('USD');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.opened) {
      setName(props.initial);
      setError(null);
    }
  }, [props.opened, props.initial]);
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          props
            .onSubmit(name.trim(), currency.trim().toUpperCase())
            .catch((err: unknown) => setError(messageOf(err)));
        }}
      >
        <Stack>
          <TextInput
            label={props.label}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
            required
          />
          {props.withCurrency && (
            <TextInput
              label="Currency"
              description="Three-letter code"
              value={currency}
              maxLength={3}
              onChange={(e) => setCurrency(e.currentTarget.value)}
            />
          )}
          <FormAlert message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={props.loading}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function PlanEditor({ id, onDeleted }: { id: string; onDeleted: () => void }) {
  const plan = useRatePlan(id);
  const save = useSavePrices();
  const rename = useRenamePlan();
  const copy = useCopyPlan();
  const makeDefault = useMakeDefaultPlan();
  const remove = useDeletePlan();
  const importPrices = useImportPrices();
  const [rows, setRows] = useState<Row[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [modal, setModal] = useState<'rename' | 'copy' | 'default' | 'delete' | null>(null);
  const [importMode, setImportMode] = useState<'merge' | 'replace'>('merge');
  const [progress, setProgress] = useState<number | null>(null);
  const [imported, setImported] = useState<ImportResult | null>(null);
  const [to, setTo] = useState('');
  const [preview, setPreview] = useState<PricePreview | string | null>(null);

  useEffect(() => {
    if (plan.data) setRows(toRows(plan.data));
  }, [plan.data]);

  if (plan.isPending) return <LoadingBlock label="Loading the plan…" />;
  if (plan.isError) return <ErrorBlock message={messageOf(plan.error)} onRetry={() => void plan.refetch()} />;
  const p = plan.data;

  const saveRows = async () => {
    setError(null);
    const prices = [];
    for (const [i, r] of rows.entries()) {
      const minor = priceMinor(r.price);
      if (minor === null) return setError(`Row ${i + 1}: "${r.price}" is not a price (e.g. 0.05)`);
      if (r.prefix && !/^\+[1-9]\d{0,14}$/.test(r.prefix.trim()))
        return setError(`Row ${i + 1}: a prefix is + and digits, e.g. +44`);
      prices.push({ prefix: r.prefix.trim(), priceMinor: minor });
    }
    try {
      await save.mutateAsync({ id, prices });
      toast.success(`Saved ${prices.length} prices.`);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const onFile = async (file: File | null) => {
    if (!file) return;
    setImported(null);
    setError(null);
    if (file.size > 1_000_000) return setError('The file is too large (1 MB at most).');
    setProgress(0);
    try {
      const csv = await file.text();
      const res = await importPrices.mutateAsync({ id, csv, mode: importMode, onProgress: setProgress });
      setImported(res);
      if (res.rejected.length === 0) toast.success(`Imported ${res.imported} prices.`);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setProgress(null);
    }
  };

  const runPreview = async () => {
    try {
      setPreview(await previewPrice(id, to));
    } catch (e) {
      setPreview(messageOf(e));
    }
  };

  return (
    <Stack gap="md">
      <Paper withBorder radius="md">
        <SectionHeader
          title={p.name}
          hint={`${p.currency} · ${p.priceCount} prices · ${p.accountCount} account${p.accountCount === 1 ? '' : 's'}`}
        >
          {p.isDefault ? (
            <Badge color="green" variant="dot">
              Default plan
            </Badge>
          ) : (
            <Button variant="default" size="xs" onClick={() => setModal('default')}>
              Make default
            </Button>
          )}
          <Button variant="default" size="xs" onClick={() => setModal('rename')}>
            Rename
          </Button>
          <Button variant="default" size="xs" onClick={() => setModal('copy')}>
            Copy
          </Button>
          <Button variant="default" size="xs" onClick={() => setModal('delete')} disabled={p.isDefault}>
            Delete
          </Button>
        </SectionHeader>
        <Text size="sm" c="dimmed" px="md" pb="sm">
          A message is priced per segment by the longest prefix its number starts with; the empty prefix
          prices every other destination. Without it, numbers no prefix covers cannot be sent to.
        </Text>
        <ResponsiveTable minWidth={520} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Prefix</Table.Th>
              <Table.Th>Country</Table.Th>
              <Table.Th>Price per segment ({p.currency})</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r, i) => (
              <Table.Tr key={r.key}>
                <Table.Td data-label="Prefix">
                  <TextInput
                    size="xs"
                    aria-label={`Prefix of row ${i + 1}`}
                    placeholder="(everywhere else)"
                    value={r.prefix}
                    onChange={(e) => {
                      const v = e.currentTarget.value;
                      setRows((all) =>
                        all.map((x) => (x.key === r.key ? { ...x, prefix: v, countryName: null } : x)),
                      );
                    }}
                  />
                </Table.Td>
                <Table.Td data-label="Country">
                  <Text size="sm">{r.prefix ? (r.countryName ?? '—') : 'All other destinations'}</Text>
                </Table.Td>
                <Table.Td data-label="Price">
                  <TextInput
                    size="xs"
                    aria-label={`Price of row ${i + 1}`}
                    value={r.price}
                    onChange={(e) => {
                      const v = e.currentTarget.value;
                      setRows((all) => all.map((x) => (x.key === r.key ? { ...x, price: v } : x)));
                    }}
                  />
                </Table.Td>
                <Table.Td data-label="">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove row ${i + 1}`}
                    onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))}
                  >
                    <IconTrash />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
        <FormAlert message={error} />
        <Group justify="space-between" p="md">
          <Button
            variant="default"
            leftSection={<IconPlus />}
            onClick={() =>
              setRows((all) => [...all, { key: ++rowKey, prefix: '', price: '0.00', countryName: null }])
            }
          >
            Add price
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={() => setRows(toRows(p))}>
              Discard changes
            </Button>
            <Button onClick={() => void saveRows()} loading={save.isPending}>
              Save prices
            </Button>
          </Group>
        </Group>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Text fw={600} mb="xs">
          Import and export
        </Text>
        <Text size="sm" c="dimmed" mb="sm">
          CSV with a header row and the columns <code>prefix</code> and <code>price</code> (major units, e.g.
          0.05); a <code>country</code> column is ignored. A file with any bad row is not imported; the bad
          rows are listed.
        </Text>
        <Group gap="sm" wrap="wrap">
          <SegmentedControl
            aria-label="Import mode"
            value={importMode}
            onChange={(v) => setImportMode(v)}
            data={[
              { value: 'merge', label: 'Add and update' },
              { value: 'replace', label: 'Replace all prices' },
            ]}
          />
          <FileButton onChange={(f) => void onFile(f)} accept=".csv,text/csv">
            {(props) => (
              <Button {...props} variant="default" loading={importPrices.isPending}>
                Import CSV…
              </Button>
            )}
          </FileButton>
          <Button
            variant="default"
            onClick={() =>
              void downloadFile(adminPath(ADMIN_API.ratePlanExport, id), `rate-plan-${p.name}.csv`).catch(
                (e: unknown) => toast.error(messageOf(e)),
              )
            }
          >
            Export CSV
          </Button>
        </Group>
        {progress !== null && <Progress value={progress * 100} mt="sm" aria-label="Upload progress" />}
        {imported && imported.rejected.length > 0 && (
          <Alert
            color="red"
            variant="light"
            mt="sm"
            title={`Not imported: ${imported.rejected.length} bad row${imported.rejected.length === 1 ? '' : 's'}`}
          >
            <Table fz="sm" verticalSpacing={2}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Line</Table.Th>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Problem</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {imported.rejected.slice(0, 100).map((r) => (
                  <Table.Tr key={r.line}>
                    <Table.Td>{r.line}</Table.Td>
                    <Table.Td ff="monospace">{r.value}</Table.Td>
                    <Table.Td>{r.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Alert>
        )}
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Text fw={600} mb="xs">
          Price preview
        </Text>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void runPreview();
          }}
        >
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Phone number"
              placeholder="+447700900123"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
            />
            <Button type="submit" variant="default">
              Preview
            </Button>
          </Group>
        </form>
        {typeof preview === 'string' && <FormAlert message={preview} />}
        {preview && typeof preview === 'object' && (
          <Text size="sm" mt="sm" data-testid="price-preview">
            {preview.to} costs <b>{formatMoney(preview.priceMinor, preview.currency)}</b> per segment
            {preview.prefix
              ? ` (prefix ${preview.prefix}${preview.countryName ? `, ${preview.countryName}` : ''})`
              : ' (every other destination)'}
            .
          </Text>
        )}
      </Paper>

      <NameModal
        opened={modal === 'rename'}
        title="Rename rate plan"
        label="Name"
        initial={p.name}
        loading={rename.isPending}
        onSubmit={async (name) => {
          await rename.mutateAsync({ id, name });
          setModal(null);
        }}
        onClose={() => setModal(null)}
      />
      <NameModal
        opened={modal === 'copy'}
        title="Copy rate plan"
        label="Name of the copy"
        initial={`${p.name} (copy)`}
        loading={copy.isPending}
        onSubmit={async (name) => {
          await copy.mutateAsync({ id, name });
          toast.success(`Copied to "${name}".`);
          setModal(null);
        }}
        onClose={() => setModal(null)}
      />
      <Modal
        opened={modal === 'default'}
        onClose={() => setModal(null)}
        title="Change the default plan"
        centered
      >
        <Stack>
          <Text size="sm">
            Make <b>{p.name}</b> the default plan? Every account without a plan of its own is priced by it
            from now on, in {p.currency}.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setModal(null)} data-autofocus>
              Cancel
            </Button>
            <Button
              loading={makeDefault.isPending}
              onClick={() =>
                void makeDefault
                  .mutateAsync(id)
                  .then(() => {
                    toast.success(`"${p.name}" is now the default plan.`);
                    setModal(null);
                  })
                  .catch((e: unknown) => toast.error(messageOf(e)))
              }
            >
              Make default
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ConfirmDeleteModal
        opened={modal === 'delete'}
        title="Delete rate plan"
        confirmLabel="Delete plan"
        loading={remove.isPending}
        onConfirm={() =>
          void remove
            .mutateAsync(id)
            .then(() => {
              setModal(null);
              onDeleted();
            })
            .catch((e: unknown) => toast.error(messageOf(e)))
        }
        onClose={() => setModal(null)}
      >
        Delete <b>{p.name}</b> and its {p.priceCount} prices? This cannot be undone.
      </ConfirmDeleteModal>
    </Stack>
  );
}

export default function RatePlansPage() {
  const plans = useRatePlans();
  const create = useCreatePlan();
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const current = selected ?? plans.data?.find((p) => p.isDefault)?.id ?? plans.data?.[0]?.id ?? null;

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Paper withBorder radius="md">
          <SectionHeader title="Rate plans">
            <Button size="xs" leftSection={<IconPlus />} onClick={() => setCreating(true)}>
              New plan
            </Button>
          </SectionHeader>
          {plans.isPending && <LoadingBlock label="Loading plans…" />}
          {plans.isError && (
            <ErrorBlock message={messageOf(plans.error)} onRetry={() => void plans.refetch()} />
          )}
          {plans.data?.length === 0 && <EmptyBlock title="No rate plans" />}
          <Stack gap={0} pb="xs">
            {plans.data?.map((p) => (
              <NavLink
                key={p.id}
                component="button"
                active={p.id === current}
                color="gray"
                onClick={() => setSelected(p.id)}
                label={p.name}
                description={`${p.currency} · ${p.priceCount} prices · ${p.accountCount} accounts`}
                rightSection={
                  p.isDefault ? (
                    <Badge size="xs" color="green" variant="dot">
                      Default
                    </Badge>
                  ) : undefined
                }
              />
            ))}
          </Stack>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        {current ? (
          <PlanEditor key={current} id={current} onDeleted={() => setSelected(null)} />
        ) : (
          !plans.isPending && <EmptyBlock title="Create a plan to set prices" />
        )}
      </Grid.Col>
      <NameModal
        opened={creating}
        title="New rate plan"
        label="Name"
        initial=""
        withCurrency
        loading={create.isPending}
        onSubmit={async (name, currency) => {
          const plan = await create.mutateAsync({ name, currency });
          setSelected(plan.id);
          setCreating(false);
        }}
        onClose={() => setCreating(false)}
      />
    </Grid>
  );
}
