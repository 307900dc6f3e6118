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
import { toast } from '@/lib/toast';
import { useDecideSenderIds, useSenderIdQueue } from '../api/admin-api';
import { EmptyBlock, ErrorBlock, LoadingBlock, LoadMore, SectionHeader, When } from '../components/common';

type Status = 'requested' | 'approved' | 'rejected';

export default function SenderIdApprovalsPage() {
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
          `${action === 'approve' ? 'Approved' : 'Rejected'} ${done} sender ID${done === 1 ? '' : 's'}.`,
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
          title="Sender ID approvals"
          hint="Requesters see the decision at once, with the reason"
        >
          <SegmentedControl
            aria-label="Status"
            value={status}
            onChange={(v) => {
              setStatus(v);
              setSelected(new Set());
            }}
            data={[
              { value: 'requested', label: 'Waiting' },
              { value: 'approved', label: 'Approved' },
              { value: 'rejected', label: 'Rejected' },
            ]}
          />
        </SectionHeader>
        {chosen.length > 0 && (
          <Group px="md" pb="sm" gap="sm">
            <Text size="sm">{chosen.length} selected</Text>
            {status !== 'approved' && (
              <Button size="xs" loading={decide.isPending} onClick={() => void run(chosen, 'approve')}>
                Approve selected
              </Button>
            )}
            {status !== 'rejected' && (
              <Button size="xs" variant="default" onClick={() => dialog.open(chosen)}>
                Reject selected…
              </Button>
            )}
          </Group>
        )}
        <FormAlert message={error} />
        {queue.isPending && <LoadingBlock label="Loading sender IDs…" />}
        {queue.isError && (
          <ErrorBlock message={messageOf(queue.error)} onRetry={() => void queue.refetch()} />
        )}
        {queue.isSuccess && items.length === 0 && (
          <EmptyBlock
            title={status === 'requested' ? 'Nothing waiting for approval' : `No ${status} sender IDs`}
          >
            {status === 'requested' ? 'New requests appear here as customers make them.' : null}
          </EmptyBlock>
        )}
        {items.length > 0 && (
          <ResponsiveTable minWidth={860} verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select all"
                    checked={allChosen}
                    indeterminate={chosen.length > 0 && !allChosen}
                    onChange={() => setSelected(allChosen ? new Set() : new Set(items.map((s) => s.id)))}
                  />
                </Table.Th>
                <Table.Th>Sender ID</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th>Purpose and sample</Table.Th>
                <Table.Th>Requested</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td data-label="">
                    <Checkbox
                      aria-label={`Select ${s.value}`}
                      checked={selected.has(s.id)}
                      onChange={() => toggle(s.id)}
                    />
                  </Table.Td>
                  <Table.Td data-label="Sender ID">
                    <Text fw={600} ff="monospace">
                      {s.value}
                    </Text>
                    <Badge size="xs" variant="light" color="gray">
                      {s.kind}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label="Account">{s.accountName}</Table.Td>
                  <Table.Td data-label="Purpose and sample">
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
                  <Table.Td data-label="Requested">
                    <When at={s.createdAt} />
                  </Table.Td>
                  <Table.Td data-label="">
                    <Group gap={6} wrap="nowrap" justify="flex-end">
                      {s.status !== 'approved' && (
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => void run([s], 'approve')}
                          aria-label={`Approve ${s.value}`}
                        >
                          Approve
                        </Button>
                      )}
                      {s.status !== 'rejected' && (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => dialog.open([s])}
                          aria-label={`Reject ${s.value}`}
                        >
                          Reject
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
      <Modal opened={dialog.opened} onClose={dialog.close} title="Reject sender ID" centered>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (reason.trim().length < 3) return setError('Give the reason (at least 3 characters)');
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
              Reject{' '}
              {rejecting?.length === 1 ? <b>{rejecting[0]?.value}</b> : `${rejecting?.length} sender IDs`}?
              The requester sees this reason and can correct the request.
            </Text>
            <Textarea
              label="Reason"
              placeholder="The brand name does not match the account's business"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-autofocus
              required
            />
            <FormAlert message={error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => dialog.close()}>
                Cancel
              </Button>
              <Button type="submit" color="red" loading={decide.isPending}>
                Reject
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
