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
import { rich } from '@/components/common';
import { useT, type Translate } from '@/lib/i18n';

function summary(t: Translate, items: SenderIdDto[]): string {
  const approved = items.filter((s) => s.status === 'approved').length;
  const pending = items.filter((s) => s.status === 'requested').length;
  const parts = [
    items.length === 1
      ? t('{{count}} sender ID', { count: items.length })
      : t('{{count}} sender IDs', { count: items.length }),
    t('{{count}} approved', { count: approved }),
  ];
  if (pending) parts.push(t('{{count}} pending review', { count: pending }));
  return parts.join(' · ');
}

/** The delete question, with what deleting the default does to messages that name no sender (the server's rule). */
function DeleteQuestion({ item, items }: { item: SenderIdDto; items: SenderIdDto[] }) {
  const t = useT();
  const value = <b>{item.value}</b>;
  if (!item.isDefault)
    return rich(t, 'Delete {{value}}? You will no longer be able to send from it. This cannot be undone.', {
      value,
    });
  const next = nextDefault(items, item);
  return next
    ? rich(
        t,
        'Delete {{value}}? You will no longer be able to send from it, and {{next}}, your oldest approved sender ID, will become the default. This cannot be undone.',
        { value, next: <b>{next.value}</b> },
      )
    : rich(
        t,
        "Delete {{value}}? You will no longer be able to send from it, and messages that name no sender will go from the platform's shared sender. This cannot be undone.",
        { value },
      );
}

export default function SenderIdsPage() {
  const t = useT();
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
      toast.success(t('"{{value}}" is now your default sender ID.', { value: item.value }));
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
      toast.success(t('Sender ID "{{value}}" has been deleted.', { value: item.value }));
      deleting.close();
    } catch (error) {
      setDeleteError(messageOf(error));
    }
  };

  return (
    <Stack gap="lg">
      {approval.data === 'manual' && (
        <Alert variant="light" color="blue" icon={<IconInfo />} title={t('How approval works')}>
          {t(
            'Every new sender ID is checked by our team against its purpose and sample message, usually within one business day. You can send from a sender ID once it is approved; the default one is used when a message names no sender. A rejected request shows the reason, so you can correct it and ask again.',
          )}
        </Alert>
      )}
      {approval.data === 'auto' && (
        <Alert variant="light" color="blue" icon={<IconInfo />} title={t('How sender IDs work')}>
          {t(
            'A new sender ID is approved as soon as you request it, and your first one becomes the default: it is used when a message names no sender. You can change the default at any time, and delete a sender ID that no OTP service uses (point such a service at another sender first).',
          )}
        </Alert>
      )}
      <Paper withBorder radius="md">
        <Group justify="space-between" p="md" wrap="wrap" gap="sm">
          <div>
            <Title order={2} size="h4">
              {t('Your sender IDs')}
            </Title>
            <Text size="sm" c="dimmed">
              {list.data?.length ? summary(t, list.data) : t('The names and numbers your messages come from')}
            </Text>
          </div>
          <Can permission="sender-ids:manage">
            <Button leftSection={<IconPlus />} onClick={() => setRequesting(true)}>
              {t('Request sender ID')}
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
        title={t('Delete sender ID')}
        confirmLabel={t('Delete sender ID')}
        loading={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={deleting.close}
      >
        {deleting.target && <DeleteQuestion item={deleting.target} items={items} />}
      </ConfirmDeleteModal>
    </Stack>
  );
}
