import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { ConnectionDto } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useConnectionAction, type ConnectionAction } from '../api/connections-api';

export interface ActionTarget {
  connection: ConnectionDto;
  action: ConnectionAction;
}

/**
 * Drain, end a drain, pause or resume a connection, after a dialog that says what it does and
 * asks for the reason the audit log keeps (required for a drain and its end).
 */
export function ConnectionActionModal(props: {
  opened: boolean;
  target: ActionTarget | null;
  onClose: () => void;
}) {
  const t = useT();
  const act = useConnectionAction();
  const [reason, setReason] = useState('');
  const [dialogError, setDialogError] = useState<string | null>(null);
  const acting = { target: props.target, opened: props.opened, close: props.onClose };

  // Each opening starts empty.
  useEffect(() => {
    if (props.opened) {
      setReason('');
      setDialogError(null);
    }
  }, [props.opened, props.target]);

  const ACTION_TEXT: Record<
    ConnectionAction,
    { title: string; confirm: string; body: (name: string) => string; done: (name: string) => string }
  > = {
    drain: {
      title: t('Drain connection'),
      confirm: t('Drain'),
      body: (name) =>
        t(
          'Drain {{name}}? No new messages go through it; its binds stay up for the receipts and replies still to come.',
          { name },
        ),
      done: (name) => t('{{name}} is draining: no new messages go through it.', { name }),
    },
    undrain: {
      title: t('End the drain'),
      confirm: t('End drain'),
      body: (name) => t('End the drain of {{name}}? It takes new messages again.', { name }),
      done: (name) => t('{{name}} takes new messages again.', { name }),
    },
    pause: {
      title: t('Pause connection'),
      confirm: t('Pause'),
      body: (name) =>
        t(
          'Pause {{name}}? New messages routed to it wait in the queue (until they expire); once the submits in flight are answered its binds are unbound.',
          { name },
        ),
      done: (name) => t('{{name}} is paused: messages for it wait in the queue.', { name }),
    },
    resume: {
      title: t('Resume connection'),
      confirm: t('Resume'),
      body: (name) => t('Resume sending through {{name}}? Messages waiting for it go out again.', { name }),
      done: (name) => t('{{name}} resumes sending.', { name }),
    },
  };
  const action = acting.target ? ACTION_TEXT[acting.target.action] : null;
  const reasonRequired = acting.target?.action === 'drain' || acting.target?.action === 'undrain';

  const confirmAction = async () => {
    const target = acting.target;
    if (!target) return;
    if (reasonRequired && reason.trim().length < 3) {
      setDialogError(t('Give a reason of at least 3 characters'));
      return;
    }
    try {
      await act.mutateAsync({ name: target.connection.name, action: target.action, reason: reason.trim() });
      toast.success(ACTION_TEXT[target.action].done(target.connection.name));
      acting.close();
    } catch (e) {
      setDialogError(
        e instanceof HttpError && e.fieldErrors.reason ? e.fieldErrors.reason.join(' ') : messageOf(e),
      );
    }
  };

  return (
    <Modal opened={acting.opened} onClose={acting.close} title={action?.title} centered>
      <Stack>
        <Text size="sm">{action?.body(acting.target?.connection.name ?? '')}</Text>
        <Textarea
          label={t('Reason')}
          description={t('Kept in the audit log')}
          required={reasonRequired}
          autosize
          minRows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          data-autofocus
        />
        <FormAlert message={dialogError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={acting.close}>
            {t('Cancel')}
          </Button>
          <Button
            color={
              acting.target?.action === 'drain' || acting.target?.action === 'pause' ? 'orange' : undefined
            }
            loading={act.isPending}
            onClick={() => void confirmAction()}
          >
            {action?.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
