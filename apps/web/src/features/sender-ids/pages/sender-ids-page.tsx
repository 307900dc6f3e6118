import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { SenderIdDto } from '@wren/contracts';
import { Can } from '@/components/can';
import { messageOf } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { useDeleteSenderId } from '../api/delete-sender-id';
import { useSenderIdApproval } from '../api/get-sender-id-approval';
import { useSenderIds } from '../api/get-sender-ids';
import { useSetDefaultSenderId } from '../api/set-default-sender-id';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { IconInfo, IconPlus } from '../components/icons';
import { RequestSenderIdModal } from '../components/request-sender-id-modal';
import { LoadError, SenderIdsEmpty, SenderIdsSkeleton } from '../components/sender-ids-panel-states';
import { SenderIdTable } from '../components/sender-id-table';
import { nextDefault, sortSenderIds } from '../sender-id-rules';

function summary(items: SenderIdDto[]): string {
  const approved = items.filter((s) => s.status === 'approved').length;
  const pending = items.filter((s) => s.status === 'requested').length;
  const parts = [`${items.length} sender ID${items.length === 1 ? '' : 's'}`, `${approved} approved`];
  if (pending) parts.push(`${pending} pending review`);
  return parts.join(' · ');
}

/** What deleting the default does to messages that name no sender (the server's rule). */
function DefaultAfterDelete({ next }: { next: SenderIdDto | null }) {
  return next ? (
    <>
      , and <b>{next.value}</b>, your oldest approved sender ID, will become the default
    </>
  ) : (
    <>, and messages that name no sender will go from the platform&apos;s shared sender</>
  );
}

export default function SenderIdsPage() {
  const list = useSenderIds();
  const approval = useSenderIdApproval();
  const setDefault = useSetDefaultSenderId();
  const remove = useDeleteSenderId();
  const [requesting, setRequesting] = useState(false);
  const deleting = useModalTarget<SenderIdDto>();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const items = list.data ? sortSenderIds(list.data) : [];

  const makeDefault = async (item: SenderIdDto) => {
    try {
      await setDefault.mutateAsync(item.id);
      toast.success(`"${item.value}" is now your default sender ID.`);
    } catch (error) {
      toast.error(messageOf(error));
    }
  };

  const askDelete = (item: SenderIdDto) => {
    setDeleteError(null);
    deleting.open(item);
  };

  const confirmDelete = async () => {
    const item = deleting.target;
    if (!item) return;
    try {
      await remove.mutateAsync(item.id);
      toast.success(`Sender ID "${item.value}" has been deleted.`);
      deleting.close();
    } catch (error) {
      setDeleteError(messageOf(error));
    }
  };

  return (
    <Stack gap="lg">
      {approval.data === 'manual' && (
        <Alert variant="light" color="blue" icon={<IconInfo />} title="How approval works">
          Every new sender ID is checked by our team against its purpose and sample message, usually within
          one business day. You can send from a sender ID once it is approved; the default one is used when a
          message names no sender. A rejected request shows the reason, so you can correct it and ask again.
        </Alert>
      )}
      {approval.data === 'auto' && (
        <Alert variant="light" color="blue" icon={<IconInfo />} title="How sender IDs work">
          A new sender ID is approved as soon as you request it, and your first one becomes the default: it is
          used when a message names no sender. You can change the default at any time, and delete a sender ID
          that no OTP service uses (point such a service at another sender first).
        </Alert>
      )}
      <Paper withBorder radius="md">
        <Group justify="space-between" p="md" wrap="wrap" gap="sm">
          <div>
            <Title order={2} size="h4">
              Your sender IDs
            </Title>
            <Text size="sm" c="dimmed">
              {list.data?.length ? summary(list.data) : 'The names and numbers your messages come from'}
            </Text>
          </div>
          <Can permission="sender-ids:manage">
            <Button leftSection={<IconPlus />} onClick={() => setRequesting(true)}>
              Request sender ID
            </Button>
          </Can>
        </Group>
        {list.isPending && <SenderIdsSkeleton />}
        {list.isError && <LoadError message={messageOf(list.error)} onRetry={() => void list.refetch()} />}
        {list.isSuccess && items.length === 0 && <SenderIdsEmpty onRequest={() => setRequesting(true)} />}
        {items.length > 0 && (
          <SenderIdTable
            items={items}
            settingDefault={setDefault.isPending ? (setDefault.variables ?? null) : null}
            onMakeDefault={(item) => void makeDefault(item)}
            onDelete={askDelete}
          />
        )}
      </Paper>

      <RequestSenderIdModal opened={requesting} onClose={() => setRequesting(false)} />
      <ConfirmDeleteModal
        opened={deleting.opened}
        title="Delete sender ID"
        confirmLabel="Delete sender ID"
        loading={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={deleting.close}
      >
        Delete <b>{deleting.target?.value}</b>? You will no longer be able to send from it
        {deleting.target?.isDefault && <DefaultAfterDelete next={nextDefault(items, deleting.target)} />}.
        This cannot be undone.
      </ConfirmDeleteModal>
    </Stack>
  );
}
