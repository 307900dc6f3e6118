import { useState } from 'react';
import { Alert, Button, Group, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import type { AdminAccountDetail } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useCurrentUser } from '@/lib/use-session';
import { toast } from '@/lib/toast';
import { useLock, useUnlock } from '../api/admin-api';
import { rich, When } from './common';

/** Locking an account (signs its users out, stops its sending) and unlocking it, with a reason. */
export function AccountLockCard({ account }: { account: AdminAccountDetail }) {
  const t = useT();
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
        locked ? t('The account is unlocked.') : t('The account is locked and its sessions have ended.'),
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
        {t('Access')}
      </Title>
      {locked ? (
        <Alert color="red" variant="light" mb="sm" title={t('Locked')}>
          {rich(t, 'Since {{when}}: {{reason}}', {
            when: <When at={account.lockedAt} />,
            reason: account.lockedReason,
          })}
        </Alert>
      ) : (
        <Text size="sm" c="dimmed" mb="sm">
          {t(
            "Locking signs every user of this account out at once and stops them signing in until it is unlocked. It also stops the account's sending: its waiting messages and the unsent part of its campaigns are canceled and refunded, and its API keys stop working.",
          )}
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
        {locked ? t('Unlock account') : t('Lock account')}
      </Button>
      {own && !locked && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('This is your own account.')}
        </Text>
      )}
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={locked ? t('Unlock account') : t('Lock account')}
        centered
      >
        <Stack>
          <Text size="sm">
            {locked
              ? t('Let the users of {{name}} sign in again?', { name: account.username ?? account.name })
              : t('Lock {{name}}? Every user is signed out now and cannot sign in until you unlock it.', {
                  name: account.username ?? account.name,
                })}
          </Text>
          {!locked && (
            <Text size="sm">
              {t(
                "The account's scheduled and queued messages and unfinished campaigns are canceled now and their cost refunded. They stay canceled after an unlock. Messages already being sent still go out.",
              )}
            </Text>
          )}
          <Textarea
            label={locked ? t('Note (optional)') : t('Reason')}
            placeholder={locked ? t('Verified with the customer') : t('Spam complaints from carriers')}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus
          />
          <FormAlert message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('Cancel')}
            </Button>
            <Button
              color={locked ? undefined : 'red'}
              loading={lock.isPending || unlock.isPending}
              onClick={() => void submit()}
            >
              {locked ? t('Unlock') : t('Lock account')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
