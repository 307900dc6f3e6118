import { useState } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import type { AdminSenderIdDto } from '@wren/contracts';
import { useModalTarget } from '@/components/confirm-delete-modal';
import { FormAlert } from '@/components/form-alert';
import { ResponsiveTable } from '@/components/responsive-table';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useDecideSenderIds, useSenderIdQueue } from '../api/admin-api';
import {
  EmptyBlock,
  ErrorBlock,
  LoadingBlock,
  LoadMore,
  rich,
  SectionHeader,
  When,
} from '../components/common';

type Status = 'requested' | 'approved' | 'rejected';

export default function SenderIdApprovalsPage() {
  const t = useT();
  const [status, setStatus] = useState<Status>('requested');
  const queue = useSenderIdQueue(status);
  const decide = useDecideSenderIds();
  const items = queue.data?.pages.flatMap((p) => p.items) ?? [];
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const dialog = useModalTarget<AdminSenderIdDto[]>();
  const rejecting = dialog.target;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const chosen = items.filter((s) => selected.has(s.id));
  const allChosen = items.length > 0 && chosen.length === items.length;

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const run = async (list: AdminSenderIdDto[], action: 'approve' | 'reject', why?: string) => {
    setError(null);
    try {
      const results = await decide.mutateAsync({ ids: list.map((s) => s.id), action, reason: why });
      const failed = results.filter((r) => !r.ok);
      const done = results.length - failed.length;
      if (done)
        toast.success(
          action === 'approve'
            ? done === 1
              ? t('Approved {{count}} sender ID.', { count: done })
              : t('Approved {{count}} sender IDs.', { count: done })
            : done === 1
              ? t('Rejected {{count}} sender ID.', { count: done })
              : t('Rejected {{count}} sender IDs.', { count: done }),
        );
      if (failed.length) toast.error(failed.map((f) => f.message).join(' '));
      setSelected(new Set());
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    }
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <SectionHeader
          title={t('Sender ID approvals')}
          hint={t('Requesters see the decision at once, with the reason')}
        >
          <SegmentedControl
            aria-label={t('Status')}
            value={status}
            onChange={(v) => {
              setStatus(v);
              setSelected(new Set());
            }}
            data={[
              { value: 'requested', label: t('Waiting') },
              { value: 'approved', label: t('Approved') },
              { value: 'rejected', label: t('Rejected') },
            ]}
          />
        </SectionHeader>
        {chosen.length > 0 && (
          <Group px="md" pb="sm" gap="sm">
            <Text size="sm">{t('{{count}} selected', { count: chosen.length })}</Text>
            {status !== 'approved' && (
              <Button size="xs" loading={decide.isPending} onClick={() => void run(chosen, 'approve')}>
                {t('Approve selected')}
              </Button>
            )}
            {status !== 'rejected' && (
              <Button size="xs" variant="default" onClick={() => dialog.open(chosen)}>
                {t('Reject selected…')}
              </Button>
            )}
          </Group>
        )}
        <FormAlert message={error} />
        {queue.isPending && <LoadingBlock label={t('Loading sender IDs…')} />}
        {queue.isError && (
          <ErrorBlock message={messageOf(queue.error)} onRetry={() => void queue.refetch()} />
        )}
        {queue.isSuccess && items.length === 0 && (
          <EmptyBlock
            title={
              status === 'requested'
                ? t('Nothing waiting for approval')
                : status === 'approved'
                  ? t('No approved sender IDs')
                  : t('No rejected sender IDs')
            }
          >
            {status === 'requested' ? t('New requests appear here as customers make them.') : null}
          </EmptyBlock>
        )}
        {items.length > 0 && (
          <ResponsiveTable minWidth={860} verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('Select all')}
                    checked={allChosen}
                    indeterminate={chosen.length > 0 && !allChosen}
                    onChange={() => setSelected(allChosen ? new Set() : new Set(items.map((s) => s.id)))}
                  />
                </Table.Th>
                <Table.Th>{t('Sender ID')}</Table.Th>
                <Table.Th>{t('Account')}</Table.Th>
                <Table.Th>{t('Purpose and sample')}</Table.Th>
                <Table.Th>{t('Requested')}</Table.Th>
                <Table.Th aria-label={t('Actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td data-label="">
                    <Checkbox
                      aria-label={t('Select {{value}}', { value: s.value })}
                      checked={selected.has(s.id)}
                      onChange={() => toggle(s.id)}
                    />
                  </Table.Td>
                  <Table.Td data-label={t('Sender ID')}>
                    <Text fw={600} ff="monospace">
                      {s.value}
                    </Text>
                    <Badge size="xs" variant="light" color="gray">
                      {s.kind}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label={t('Account')}>{s.accountName}</Table.Td>
                  <Table.Td data-label={t('Purpose and sample')}>
                    <Text size="sm">{s.purpose}</Text>
                    <Text size="xs" c="dimmed" lineClamp={2}>
                      “{s.sampleMessage}”
                    </Text>
                    {s.reason && status !== 'requested' && (
                      <Text size="xs" c={status === 'rejected' ? 'var(--mantine-color-red-text)' : 'dimmed'}>
                        {s.reason}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Requested')}>
                    <When at={s.createdAt} />
                  </Table.Td>
                  <Table.Td data-label="">
                    <Group gap={6} wrap="nowrap" justify="flex-end">
                      {s.status !== 'approved' && (
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => void run([s], 'approve')}
                          aria-label={t('Approve {{value}}', { value: s.value })}
                        >
                          {t('Approve')}
                        </Button>
                      )}
                      {s.status !== 'rejected' && (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => dialog.open([s])}
                          aria-label={t('Reject {{value}}', { value: s.value })}
                        >
                          {t('Reject')}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        )}
        <LoadMore
          hasMore={!!queue.hasNextPage}
          loading={queue.isFetchingNextPage}
          onMore={() => void queue.fetchNextPage()}
          shown={items.length}
        />
      </Paper>
      <Modal opened={dialog.opened} onClose={dialog.close} title={t('Reject sender ID')} centered>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (reason.trim().length < 3) return setError(t('Give the reason (at least 3 characters)'));
            void run(rejecting ?? [], 'reject', reason.trim()).then((ok) => {
              if (ok) {
                dialog.close();
                setReason('');
              }
            });
          }}
        >
          <Stack>
            <Text size="sm">
              {rejecting?.length === 1
                ? rich(
                    t,
                    'Reject {{senderId}}? The requester sees this reason and can correct the request.',
                    {
                      senderId: <b>{rejecting[0]?.value}</b>,
                    },
                  )
                : t(
                    'Reject {{count}} sender IDs? The requester sees this reason and can correct the request.',
                    {
                      count: rejecting?.length ?? 0,
                    },
                  )}
            </Text>
            <Textarea
              label={t('Reason')}
              placeholder={t("The brand name does not match the account's business")}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-autofocus
              required
            />
            <FormAlert message={error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => dialog.close()}>
                {t('Cancel')}
              </Button>
              <Button type="submit" color="red" loading={decide.isPending}>
                {t('Reject')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
