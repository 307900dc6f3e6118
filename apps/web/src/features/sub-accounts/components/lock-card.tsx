import { useState } from 'react';
import { Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { lockSubAccountSchema, type SubAccountDetail } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { toast } from '@/lib/toast';
import { useSetLock } from '../api/sub-accounts';
import { formatDateTimeOr } from '@/lib/format';

/** Lock the sub-account (its sends and API calls are refused; members still sign in) or unlock it. */
export function LockCard({ account }: { account: SubAccountDetail }) {
  const setLock = useSetLock(account.id);
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const locked = account.status === 'locked';
  const close = () => {
    setOpened(false);
    setReasonError(null);
    setLock.reset();
  };
  const confirm = () => {
    if (!locked) {
      const parsed = lockSubAccountSchema.safeParse({ reason });
      if (!parsed.success) return setReasonError(parsed.error.issues[0]?.message ?? 'Give a reason');
    }
    setLock.mutate(locked ? null : reason, {
      onSuccess: () => {
        toast.success(locked ? `${account.name} is unlocked` : `${account.name} is locked`);
        setReason('');
        close();
      },
    });
  };
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {locked ? 'Locked' : 'Lock'}
        </Title>
        <Text size="sm" c="dimmed">
          {locked
            ? `Locked since ${formatDateTimeOr(account.lockedAt, '')}: ${account.lockedReason ?? ''}. Its sends and API calls are refused; its members can still sign in and see the reason.`
            : 'A locked sub-account cannot send or use the API. Its members can still sign in and see your reason.'}
        </Text>
        <Group>
          <Button color={locked ? 'blue' : 'red'} variant="light" onClick={() => setOpened(true)}>
            {locked ? 'Unlock sub-account' : 'Lock sub-account'}
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={opened}
        onClose={close}
        title={locked ? 'Unlock this sub-account?' : 'Lock this sub-account?'}
        centered
      >
        <Stack>
          <Text size="sm">
            {locked
              ? `${account.name} can send and use the API again.`
              : `${account.name} stops sending at once, and its API keys are refused.`}
          </Text>
          {!locked && (
            <TextInput
              label="Reason (shown to its members)"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={reasonError}
              required
            />
          )}
          <FormAlert message={setLock.error ? setLock.error.message : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button color={locked ? 'blue' : 'red'} onClick={confirm} loading={setLock.isPending}>
              {locked ? 'Unlock' : 'Lock'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
