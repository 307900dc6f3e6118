import { useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Table, Text, Textarea } from '@mantine/core';
import type { RouteDto } from '@wren/contracts';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { IconPencil, IconPlus, IconTrash } from '@/components/icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useRatePlans } from '../api/admin-api';
import { useDeleteRoute, useRoutes } from '../api/routes-api';
import { EmptyBlock, ErrorBlock, LoadingBlock, SectionHeader, When } from '../components/common';
import { LANE_LABELS, RouteFormModal, STRATEGY_SHORT } from '../components/route-form-modal';
import { RouteTestCard } from '../components/route-test-card';

function Filters({ route, planName }: { route: RouteDto; planName: (id: string) => string }) {
  const t = useT();
  const parts = [
    route.accountId && {
      label: t('Account'),
      value: `${route.accountId.slice(0, 8)}…`,
      title: route.accountId,
    },
    route.ratePlanId && { label: t('Plan'), value: planName(route.ratePlanId), title: route.ratePlanId },
    route.lane && { label: t('Lane'), value: t(LANE_LABELS[route.lane]), title: route.lane },
    route.sender && { label: t('Sender'), value: route.sender, title: route.sender },
  ].filter((p): p is { label: string; value: string; title: string } => !!p);
  if (!parts.length)
    return (
      <Text size="sm" c="dimmed">
        {t('Any')}
      </Text>
    );
  return (
    <Stack gap={2}>
      {parts.map((p) => (
        <Text key={p.label} size="sm" title={p.title}>
          <Text span c="dimmed" size="xs">
            {p.label}:
          </Text>{' '}
          {p.value}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * Admin → Routes (issue 38): which connections a destination goes through and in which order;
 * create, edit and delete (each with a reason for the audit log), and test a number.
 */
export default function RoutesPage() {
  const t = useT();
  const list = useRoutes();
  const plans = useRatePlans();
  const remove = useDeleteRoute();
  const editing = useModalTarget<{ route: RouteDto | null }>();
  const deleting = useModalTarget<RouteDto>();
  const [reason, setReason] = useState('');
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const connections = list.data?.connections ?? [];
  const planName = (id: string) => plans.data?.find((p) => p.id === id)?.name ?? `${id.slice(0, 8)}…`;

  const askDelete = (route: RouteDto) => {
    setReason('');
    setDeleteError(null);
    deleting.open(route);
  };
  const confirmDelete = async () => {
    const target = deleting.target;
    if (!target) return;
    try {
      await remove.mutateAsync({ id: target.id, reason });
      toast.success(t('Deleted the route {{name}}.', { name: target.name }));
      deleting.close();
    } catch (e) {
      setDeleteError(
        e instanceof HttpError && e.fieldErrors.reason ? e.fieldErrors.reason.join(' ') : messageOf(e),
      );
    }
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <SectionHeader
          title={t('Routes')}
          hint={t(
            'The longest matching prefix wins, then the most specific filters; each node applies a change within seconds',
          )}
        >
          <Button
            leftSection={<IconPlus />}
            onClick={() => editing.open({ route: null })}
            disabled={!list.isSuccess}
          >
            {t('New route')}
          </Button>
        </SectionHeader>
        {list.isPending && <LoadingBlock label={t('Loading routes…')} />}
        {list.isError && <ErrorBlock message={messageOf(list.error)} onRetry={() => void list.refetch()} />}
        {list.isSuccess && list.data.items.length === 0 && (
          <EmptyBlock title={t("No routes yet — messages go by the connections' own prefixes")}>
            {t(
              'A route sends a destination through several connections, cheapest or best first, with failover. Connections: {{connections}}.',
              { connections: connections.join(', ') || t('none configured') },
            )}
          </EmptyBlock>
        )}
        {list.isSuccess && list.data.items.length > 0 && (
          <ResponsiveTable minWidth={980} verticalSpacing="sm" data-testid="admin-routes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Prefix')}</Table.Th>
                <Table.Th>{t('Filters')}</Table.Th>
                <Table.Th>{t('Strategy')}</Table.Th>
                <Table.Th>{t('Connections (cost · priority · weight)')}</Table.Th>
                <Table.Th>{t('Updated')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((r) => (
                <Table.Tr key={r.id} data-route={r.name}>
                  <Table.Td data-label={t('Name')} fw={600}>
                    {r.name}
                  </Table.Td>
                  <Table.Td data-label={t('Prefix')} ff="monospace">
                    {/* A number prefix reads left to right in every language ("+44", never "44+"). */}
                    <span dir="ltr">{r.prefix}</span>
                  </Table.Td>
                  <Table.Td data-label={t('Filters')}>
                    <Filters route={r} planName={planName} />
                  </Table.Td>
                  <Table.Td data-label={t('Strategy')}>
                    <Badge variant="light" color="gray" miw="max-content">
                      {STRATEGY_SHORT[r.strategy]
                        ? t(STRATEGY_SHORT[r.strategy])
                        : r.strategy.replace('_', ' ')}
                    </Badge>
                    {(r.qualityFloor !== null || r.costCeiling) && (
                      <Text size="xs" c="dimmed">
                        {[
                          r.qualityFloor !== null && t('floor {{value}}', { value: r.qualityFloor }),
                          r.costCeiling && t('ceiling {{value}}', { value: r.costCeiling }),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Connections')}>
                    <Stack gap={2}>
                      {r.entries.map((e) => (
                        <Text key={e.connection} size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                          {e.connection}{' '}
                          <Text span c="dimmed" size="xs" ff="monospace">
                            {e.cost} · p{e.priority} · w{e.weight}
                          </Text>
                        </Text>
                      ))}
                    </Stack>
                  </Table.Td>
                  <Table.Td data-label={t('Updated')} style={{ whiteSpace: 'nowrap' }}>
                    <When at={r.updatedAt} />
                  </Table.Td>
                  <Table.Td data-label="">
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconPencil />}
                        aria-label={t('Edit {{name}}', { name: r.name })}
                        onClick={() => editing.open({ route: r })}
                      >
                        {t('Edit')}
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        color="red"
                        leftSection={<IconTrash />}
                        aria-label={t('Delete {{name}}', { name: r.name })}
                        onClick={() => askDelete(r)}
                      >
                        {t('Delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        )}
      </Paper>
      <RouteTestCard />
      <RouteFormModal
        opened={editing.opened}
        route={editing.target?.route ?? null}
        connections={connections}
        onClose={editing.close}
        onSaved={(saved) => {
          toast.success(
            editing.target?.route
              ? t('Saved the route {{name}}.', { name: saved.name })
              : t('Created the route {{name}}.', { name: saved.name }),
          );
          editing.close();
        }}
      />
      <ConfirmDeleteModal
        opened={deleting.opened}
        title={t('Delete route')}
        confirmLabel={t('Delete route')}
        loading={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={deleting.close}
      >
        <Stack gap="sm">
          <Text size="sm">
            {t(
              'Delete the route “{{name}}” ({{prefix}})? Its destinations go by the other routes, or the connections’ own prefixes, within seconds.',
              { name: deleting.target?.name ?? '', prefix: deleting.target?.prefix ?? '' },
            )}
          </Text>
          <Textarea
            label={t('Reason')}
            description={t('Kept in the audit log')}
            required
            autosize
            minRows={2}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
        </Stack>
      </ConfirmDeleteModal>
    </Stack>
  );
}
