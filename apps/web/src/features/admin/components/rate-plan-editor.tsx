import { useEffect, useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { ConfirmDeleteModal } from '@/components/confirm-delete-modal';
import { FormAlert } from '@/components/form-alert';
import { IconPlus } from '@/components/icons';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useCopyPlan, useDeletePlan, useRatePlan, useRenamePlan, useSavePrices } from '../api/admin-api';
import { newRow, toPrices, toRows, type PriceRow } from '../rate-plan-rows';
import { ErrorBlock, LoadingBlock, rich, SectionHeader } from './common';
import { RatePlanDefaultModal } from './rate-plan-default-modal';
import { RatePlanImportCard } from './rate-plan-import-card';
import { RatePlanNameModal } from './rate-plan-name-modal';
import { RatePlanPreviewCard } from './rate-plan-preview-card';
import { RatePlanPricesTable } from './rate-plan-prices-table';

/** One rate plan: its prices to edit, import and export, a price preview, and the plan's actions. */
export function RatePlanEditor({ id, onDeleted }: { id: string; onDeleted: () => void }) {
  const t = useT();
  const plan = useRatePlan(id);
  const save = useSavePrices();
  const rename = useRenamePlan();
  const copy = useCopyPlan();
  const remove = useDeletePlan();
  const [rows, setRows] = useState<PriceRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [modal, setModal] = useState<'rename' | 'copy' | 'default' | 'delete' | null>(null);

  useEffect(() => {
    if (plan.data) setRows(toRows(plan.data));
  }, [plan.data]);

  if (plan.isPending) return <LoadingBlock label={t('Loading the plan…')} />;
  if (plan.isError) return <ErrorBlock message={messageOf(plan.error)} onRetry={() => void plan.refetch()} />;
  const p = plan.data;

  const saveRows = async () => {
    setError(null);
    const checked = toPrices(rows);
    if ('error' in checked) return setError(checked.error);
    const { prices } = checked;
    try {
      await save.mutateAsync({ id, prices });
      toast.success(t('Saved {{count}} prices.', { count: prices.length }));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Stack gap="md">
      <Paper withBorder radius="md">
        <SectionHeader
          title={p.name}
          hint={`${p.currency} · ${t('{{count}} prices', { count: p.priceCount })} · ${
            p.accountCount === 1
              ? t('{{count}} account', { count: p.accountCount })
              : t('{{count}} accounts', { count: p.accountCount })
          }`}
        >
          {p.isDefault ? (
            <Badge color="green" variant="dot">
              {t('Default plan')}
            </Badge>
          ) : (
            <Button variant="default" size="xs" onClick={() => setModal('default')}>
              {t('Make default')}
            </Button>
          )}
          <Button variant="default" size="xs" onClick={() => setModal('rename')}>
            {t('Rename')}
          </Button>
          <Button variant="default" size="xs" onClick={() => setModal('copy')}>
            {t('Copy')}
          </Button>
          <Button variant="default" size="xs" onClick={() => setModal('delete')} disabled={p.isDefault}>
            {t('Delete')}
          </Button>
        </SectionHeader>
        <Text size="sm" c="dimmed" px="md" pb="sm">
          {t(
            'A message is priced per segment by the longest prefix its number starts with; the empty prefix prices every other destination. Without it, numbers no prefix covers cannot be sent to.',
          )}
        </Text>
        <RatePlanPricesTable rows={rows} onRowsChange={setRows} currency={p.currency} />
        <FormAlert message={error} />
        <Group justify="space-between" p="md">
          <Button
            variant="default"
            leftSection={<IconPlus />}
            onClick={() => setRows((all) => [...all, newRow()])}
          >
            {t('Add price')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={() => setRows(toRows(p))}>
              {t('Discard changes')}
            </Button>
            <Button onClick={() => void saveRows()} loading={save.isPending}>
              {t('Save prices')}
            </Button>
          </Group>
        </Group>
      </Paper>

      <RatePlanImportCard plan={p} onError={setError} />
      <RatePlanPreviewCard planId={id} />

      <RatePlanNameModal
        opened={modal === 'rename'}
        title={t('Rename rate plan')}
        label={t('Name')}
        initial={p.name}
        loading={rename.isPending}
        onSubmit={async (name) => {
          await rename.mutateAsync({ id, name });
          setModal(null);
        }}
        onClose={() => setModal(null)}
      />
      <RatePlanNameModal
        opened={modal === 'copy'}
        title={t('Copy rate plan')}
        label={t('Name of the copy')}
        initial={t('{{name}} (copy)', { name: p.name })}
        loading={copy.isPending}
        onSubmit={async (name) => {
          await copy.mutateAsync({ id, name });
          toast.success(t('Copied to "{{name}}".', { name }));
          setModal(null);
        }}
        onClose={() => setModal(null)}
      />
      <RatePlanDefaultModal plan={p} opened={modal === 'default'} onClose={() => setModal(null)} />
      <ConfirmDeleteModal
        opened={modal === 'delete'}
        title={t('Delete rate plan')}
        confirmLabel={t('Delete plan')}
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
        {rich(t, 'Delete {{name}} and its {{count}} prices? This cannot be undone.', {
          name: <b>{p.name}</b>,
          count: p.priceCount,
        })}
      </ConfirmDeleteModal>
    </Stack>
  );
}
