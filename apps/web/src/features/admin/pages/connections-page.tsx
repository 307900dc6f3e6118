import { useEffect, useState } from 'react';
import { Badge, Button, Group, Menu, Paper, Stack, Table, Text, Textarea } from '@mantine/core';
import type { ConnectionDto } from '@wren/contracts';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { IconPencil, IconPlus } from '@/components/icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { hub } from '@/lib/hub';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useSystemStatus } from '../api/admin-api';
import { useConnections, useDeleteConnection } from '../api/connections-api';
import { EmptyBlock, ErrorBlock, LoadingBlock, SectionHeader } from '../components/common';
import { ConnectionActionModal, type ActionTarget } from '../components/connection-action-modal';
import { Binds, ORIGIN_COLORS } from '../components/connection-binds';
import { ConnectionFormModal } from '../components/connection-form-modal';

/**
 * Admin → Connections (issue 38 item 1): the SMPP carrier connections Wren binds to, with their
 * live binds and last error; add, edit, drain, pause and remove them, each with a reason for the
 * audit log. Every worker applies a change within seconds.
 */
export default function ConnectionsPage() {
  const t = useT();
  const list = useConnections();
  const status = useSystemStatus();
  const { refetch: refetchStatus } = status;
  const remove = useDeleteConnection();
  const editing = useModalTarget<{ connection: ConnectionDto | null }>();
  const deleting = useModalTarget<ConnectionDto>();
  const acting = useModalTarget<ActionTarget>();
  const [reason, setReason] = useState('');
  const [dialogError, setDialogError] = useState<string | null>(null);

  // Live binds: admins' sockets get SystemStatusUpdated every second or two.
  useEffect(
    () =>
      hub.onPush((push, ...args) => {
        if (push === 'SystemStatusUpdated' && args.length === 0) void refetchStatus();
      }),
    [refetchStatus],
  );

  const liveOf = (name: string) => (status.data?.connections ?? []).filter((s) => s.name === name);
  const lastError = (name: string) =>
    liveOf(name)
      .map((s) => s.lastError)
      .find(Boolean) ?? null;

  const open = (target: ActionTarget | ConnectionDto, kind: 'act' | 'delete') => {
    setReason('');
    setDialogError(null);
    if (kind === 'act') acting.open(target as ActionTarget);
    else deleting.open(target as ConnectionDto);
  };
  const failed = (e: unknown) =>
    setDialogError(
      e instanceof HttpError && e.fieldErrors.reason ? e.fieldErrors.reason.join(' ') : messageOf(e),
    );

  const confirmDelete = async () => {
    const target = deleting.target;
    if (!target) return;
    try {
      await remove.mutateAsync({ name: target.name, reason });
      toast.success(t('Deleted the connection {{name}}.', { name: target.name }));
      deleting.close();
    } catch (e) {
      failed(e);
    }
  };

  const originLabel: Record<ConnectionDto['origin'], string> = {
    env: t('Environment'),
    console: t('Console'),
    builtin: t('Built-in simulator'),
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <SectionHeader
          title={t('Connections')}
          hint={t(
            'The SMPP accounts Wren binds to; every worker applies a change within seconds, closing replaced sessions gracefully',
          )}
        >
          <Button
            leftSection={<IconPlus />}
            onClick={() => editing.open({ connection: null })}
            disabled={!list.isSuccess}
          >
            {t('Add connection')}
          </Button>
        </SectionHeader>
        {list.isPending && <LoadingBlock label={t('Loading connections…')} />}
        {list.isError && <ErrorBlock message={messageOf(list.error)} onRetry={() => void list.refetch()} />}
        {list.isSuccess && list.data.items.length === 0 && (
          <EmptyBlock title={t('No connections yet')}>
            {t('Add the SMPP account your carrier gave you: its host, port, system_id and password.')}
          </EmptyBlock>
        )}
        {list.isSuccess && list.data.items.length > 0 && (
          <ResponsiveTable minWidth={960} verticalSpacing="sm" data-testid="admin-connections">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Host')}</Table.Th>
                <Table.Th>{t('Binds')}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t('Window · TPS')}</Table.Th>
                <Table.Th>{t('Prefixes')}</Table.Th>
                <Table.Th>{t('State')}</Table.Th>
                <Table.Th>{t('Last error')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((c) => {
                const builtin = c.origin === 'builtin';
                const error = lastError(c.name);
                return (
                  <Table.Tr key={c.name} data-connection={c.name}>
                    <Table.Td data-label={t('Name')}>
                      <Stack gap={4} align="flex-start">
                        <Text size="sm" fw={600} ff="monospace">
                          {c.name}
                        </Text>
                        <Badge size="xs" variant="light" color={ORIGIN_COLORS[c.origin]} tt="none">
                          {originLabel[c.origin]}
                        </Badge>
                      </Stack>
                    </Table.Td>
                    <Table.Td data-label={t('Host')}>
                      <div>
                        <Group gap={6} wrap="nowrap">
                          <Text size="sm" ff="monospace" dir="ltr" style={{ overflowWrap: 'break-word' }}>
                            {c.host}:{c.port}
                          </Text>
                          {c.tls && (
                            <Badge
                              size="xs"
                              variant="outline"
                              color={c.tlsVerify ? 'teal' : 'orange'}
                              title={c.tlsVerify ? t('Certificate verified') : t('Any certificate accepted')}
                            >
                              {c.tlsVerify ? 'TLS' : t('TLS, unverified')}
                            </Badge>
                          )}
                        </Group>
                        <Text size="xs" c="dimmed">
                          system_id{' '}
                          <Text span inherit ff="monospace" data-testid="system-id">
                            {c.systemId}
                          </Text>
                        </Text>
                      </div>
                    </Table.Td>
                    <Table.Td data-label={t('Binds')}>
                      <div>
                        <Binds c={c} live={liveOf(c.name)} t={t} />
                        <Text size="xs" c="dimmed">
                          {c.bindMode}
                        </Text>
                      </div>
                    </Table.Td>
                    <Table.Td data-label={t('Window · TPS')} style={{ whiteSpace: 'nowrap' }}>
                      <span>
                        <span data-testid="window">{c.window}</span>
                        <Text span c="dimmed">
                          {' · '}
                        </Text>
                        {c.tps === 0 ? t('no limit') : t('{{tps}}/s', { tps: c.tps })}
                      </span>
                    </Table.Td>
                    <Table.Td data-label={t('Prefixes')}>
                      {c.prefixes.length ? (
                        <Group gap={4} maw={220}>
                          {c.prefixes.map((p) => (
                            <Badge key={p} size="sm" variant="default" ff="monospace" tt="none">
                              <span dir="ltr">{p}</span>
                            </Badge>
                          ))}
                        </Group>
                      ) : (
                        <Badge
                          size="sm"
                          variant="light"
                          color="indigo"
                          tt="none"
                          title={t('Takes the numbers no route or prefix matches')}
                        >
                          {t('default')}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td data-label={t('State')}>
                      <Group gap={4}>
                        {c.paused && (
                          <Badge color="orange" variant="dot">
                            {t('Paused')}
                          </Badge>
                        )}
                        {c.draining && (
                          <Badge color="yellow" variant="dot">
                            {t('Draining')}
                          </Badge>
                        )}
                        {!c.paused && !c.draining && (
                          <Text size="sm" c="dimmed">
                            {t('Sending')}
                          </Text>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td data-label={t('Last error')} maw={220}>
                      {error ? (
                        <Text
                          size="xs"
                          // Red with the contrast of body text on either scheme (red.6 is 3.3:1 on white).
                          style={{
                            wordBreak: 'break-word',
                            color: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))',
                          }}
                          data-testid="last-error"
                        >
                          {error}
                        </Text>
                      ) : (
                        <Text size="sm" c="dimmed">
                          —
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td data-label="">
                      <Group gap="xs" wrap="nowrap">
                        {!builtin && (
                          <Button
                            size="xs"
                            variant="default"
                            leftSection={<IconPencil />}
                            aria-label={t('Edit {{name}}', { name: c.name })}
                            onClick={() => editing.open({ connection: c })}
                          >
                            {t('Edit')}
                          </Button>
                        )}
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <Button
                              size="xs"
                              variant="default"
                              aria-label={t('More for {{name}}', { name: c.name })}
                            >
                              {t('More')}
                            </Button>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {!builtin && (
                              <Menu.Item
                                onClick={() =>
                                  open({ connection: c, action: c.draining ? 'undrain' : 'drain' }, 'act')
                                }
                              >
                                {c.draining ? t('End drain') : t('Drain')}
                              </Menu.Item>
                            )}
                            <Menu.Item
                              onClick={() =>
                                open({ connection: c, action: c.paused ? 'resume' : 'pause' }, 'act')
                              }
                            >
                              {c.paused ? t('Resume') : t('Pause')}
                            </Menu.Item>
                            {!builtin && (
                              <>
                                <Menu.Divider />
                                <Menu.Item color="red" onClick={() => open(c, 'delete')}>
                                  {t('Delete')}
                                </Menu.Item>
                              </>
                            )}
                          </Menu.Dropdown>
                        </Menu>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </ResponsiveTable>
        )}
      </Paper>

      <ConnectionFormModal
        opened={editing.opened}
        connection={editing.target?.connection ?? null}
        onClose={editing.close}
        onSaved={(saved) => {
          toast.success(
            editing.target?.connection
              ? t('Saved the connection {{name}}; workers apply it within seconds.', { name: saved.name })
              : t('Added the connection {{name}}; workers bind it within seconds.', { name: saved.name }),
          );
          editing.close();
        }}
      />

      <ConnectionActionModal opened={acting.opened} target={acting.target} onClose={acting.close} />

      <ConfirmDeleteModal
        opened={deleting.opened}
        title={t('Delete connection')}
        confirmLabel={t('Delete connection')}
        loading={remove.isPending}
        error={dialogError}
        onConfirm={() => void confirmDelete()}
        onClose={deleting.close}
      >
        <Stack gap="sm">
          <Text size="sm">
            {t(
              'Delete the connection “{{name}}”? Every worker closes its binds once the submits in flight are answered.',
              { name: deleting.target?.name ?? '' },
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
