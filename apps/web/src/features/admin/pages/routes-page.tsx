import { useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Table, Text, Textarea } from '@mantine/core';
import type { RouteDto } from '@wren/contracts';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { IconPencil, IconPlus, IconTrash } from '@/components/icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { useRatePlans } from '../api/admin-api';
import { useDeleteRoute, useRoutes } from '../api/routes-api';
import { EmptyBlock, ErrorBlock, LoadingBlock, SectionHeader, When } from '../components/common';
import { LANE_LABELS, RouteFormModal } from '../components/route-form-modal';
import { RouteTestCard } from '../components/route-test-card';

function Filters({ route, planName }: { route: RouteDto; planName: (id: string) => string }) {
  const parts = [
    route.accountId && { label: 'Account', value: `${route.accountId.slice(0, 8)}…`, title: route.accountId },
    route.ratePlanId && { label: 'Plan', value: planName(route.ratePlanId), title: route.ratePlanId },
    route.lane && { label: 'Lane', value: LANE_LABELS[route.lane], title: route.lane },
    route.sender && { label: 'Sender', value: route.sender, title: route.sender },
  ].filter((p): p is { label: string; value: string; title: string } => !!p);
  if (!parts.length)
    return (
      <Text size="sm" c="dimmed">
        Any
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
      toast.success(`Deleted the route ${target.name}.`);
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
          title="Routes"
          hint="The longest matching prefix wins, then the most specific filters; each node applies a change within seconds"
        >
          <Button
            leftSection={<IconPlus />}
            onClick={() => editing.open({ route: null })}
            disabled={!list.isSuccess}
          >
            New route
          </Button>
        </SectionHeader>
        {list.isPending && <LoadingBlock label="Loading routes…" />}
        {list.isError && <ErrorBlock message={messageOf(list.error)} onRetry={() => void list.refetch()} />}
        {list.isSuccess && list.data.items.length === 0 && (
          <EmptyBlock title="No routes yet — messages go by the connections' own prefixes">
            A route sends a destination through several connections, cheapest or best first, with failover.
            Connections: {connections.join(', ') || 'none configured'}.
          </EmptyBlock>
        )}
        {list.isSuccess && list.data.items.length > 0 && (
          <ResponsiveTable minWidth={980} verticalSpacing="sm" data-testid="admin-routes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Prefix</Table.Th>
                <Table.Th>Filters</Table.Th>
                <Table.Th>Strategy</Table.Th>
                <Table.Th>Connections (cost · priority · weight)</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((r) => (
                <Table.Tr key={r.id} data-route={r.name}>
                  <Table.Td data-label="Name" fw={600}>
                    {r.name}
                  </Table.Td>
                  <Table.Td data-label="Prefix" ff="monospace">
                    {/* A number prefix reads left to right in every language ("+44", never "44+"). */}
                    <span dir="ltr">{r.prefix}</span>
                  </Table.Td>
                  <Table.Td data-label="Filters">
                    <Filters route={r} planName={planName} />
                  </Table.Td>
                  <Table.Td data-label="Strategy">
                    <Badge variant="light" color="gray" miw="max-content">
                      {r.strategy.replace('_', ' ')}
                    </Badge>
                    {(r.qualityFloor !== null || r.costCeiling) && (
                      <Text size="xs" c="dimmed">
                        {[
                          r.qualityFloor !== null && `floor ${r.qualityFloor}`,
                          r.costCeiling && `ceiling ${r.costCeiling}`,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label="Connections">
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
                  <Table.Td data-label="Updated" style={{ whiteSpace: 'nowrap' }}>
                    <When at={r.updatedAt} />
                  </Table.Td>
                  <Table.Td data-label="">
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconPencil />}
                        aria-label={`Edit ${r.name}`}
                        onClick={() => editing.open({ route: r })}
                      >
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        color="red"
                        leftSection={<IconTrash />}
                        aria-label={`Delete ${r.name}`}
                        onClick={() => askDelete(r)}
                      >
                        Delete
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
            editing.target?.route ? `Saved the route ${saved.name}.` : `Created the route ${saved.name}.`,
          );
          editing.close();
        }}
      />
      <ConfirmDeleteModal
        opened={deleting.opened}
        title="Delete route"
        confirmLabel="Delete route"
        loading={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={deleting.close}
      >
        <Stack gap="sm">
          <Text size="sm">
            Delete the route “{deleting.target?.name}” ({deleting.target?.prefix})? Its destinations go by the
            other routes, or the connections’ own prefixes, within seconds.
          </Text>
          <Textarea
            label="Reason"
            description="Kept in the audit log"
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
