import { useState } from 'react';
import { Alert, Button, Group, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import type { AdminAccountDetail } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { messageOf } from '@/lib/http/http-error';
import { useCurrentUser } from '@/lib/use-session';
import { toast } from '@/lib/toast';
import { useLock, useUnlock } from '../api/admin-api';
import { When } from './common';

/** Locking an account (signs its users out, stops its sending) and unlocking it, with a reason. */
export function AccountLockCard({ account }: { account: AdminAccountDetail }) {
  const lock = useLock(account.id);
  const unlock = useUnlock(account.id);
  const me = useCurrentUser();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const locked = account.status === 'locked';
  const own = me?.accountId === account.id;

  const submit = async () => {
    setError(null);
    try {
      if (locked) await unlock.mutateAsync({ reason: reason.trim() || undefined });
      else await lock.mutateAsync({ reason: reason.trim() });
      toast.success(
        locked ? 'The account is unlocked.' : 'The account is locked and its sessions have ended.',
      );
      setOpen(false);
      setReason('');
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        Access
      </Title>
      {locked ? (
        <Alert color="red" variant="light" mb="sm" title="Locked">
          Since <When at={account.lockedAt} />: {account.lockedReason}
        </Alert>
      ) : (
        <Text size="sm" c="dimmed" mb="sm">
          Locking signs every user of this account out at once and stops them signing in until it is unlocked.
          It also stops the account&apos;s sending: its waiting messages and the unsent part of its campaigns
          are canceled and refunded, and its API keys stop working.
        </Text>
      )}
      <Button
        variant={locked ? 'filled' : 'default'}
        disabled={own && !locked}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        {locked ? 'Unlock account' : 'Lock account'}
      </Button>
      {own && !locked && (
        <Text size="xs" c="dimmed" mt={4}>
          This is your own account.
        </Text>
      )}
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={locked ? 'Unlock account' : 'Lock account'}
        centered
      >
        <Stack>
          <Text size="sm">
            {locked
              ? `Let the users of ${account.username ?? account.name} sign in again?`
              : `Lock ${account.username ?? account.name}? Every user is signed out now and cannot sign in until you unlock it.`}
          </Text>
          {!locked && (
            <Text size="sm">
              The account&apos;s scheduled and queued messages and unfinished campaigns are canceled now and
              their cost refunded. They stay canceled after an unlock. Messages already being sent still go
              out.
            </Text>
          )}
          <Textarea
            label={locked ? 'Note (optional)' : 'Reason'}
            placeholder={locked ? 'Verified with the customer' : 'Spam complaints from carriers'}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus
          />
          <FormAlert message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              color={locked ? undefined : 'red'}
              loading={lock.isPending || unlock.isPending}
              onClick={() => void submit()}
            >
              {locked ? 'Unlock' : 'Lock account'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
