import { useState } from 'react';
import { Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { lockSubAccountSchema, type SubAccountDetail } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { toast } from '@/lib/toast';
import { useSetLock } from '../api/sub-accounts';
import { formatDateTimeOr } from '@/lib/format';
import { useT } from '@/lib/i18n';

/** Lock the sub-account (its sends and API calls are refused; members still sign in) or unlock it. */
export function LockCard({ account }: { account: SubAccountDetail }) {
  const setLock = useSetLock(account.id);
  const t = useT();
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
      if (!parsed.success) return setReasonError(parsed.error.issues[0]?.message ?? t('Give a reason'));
    }
    setLock.mutate(locked ? null : reason, {
      onSuccess: () => {
        toast.success(
          locked
            ? t('{{name}} is unlocked', { name: account.name })
            : t('{{name}} is locked', { name: account.name }),
        );
        setReason('');
        close();
      },
    });
  };
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {locked ? t('Locked') : t('Lock')}
        </Title>
        <Text size="sm" c="dimmed">
          {locked
            ? t(
                'Locked since {{date}}: {{reason}}. Its sends and API calls are refused; its members can still sign in and see the reason.',
                { date: formatDateTimeOr(account.lockedAt, ''), reason: account.lockedReason ?? '' },
              )
            : t(
                'A locked sub-account cannot send or use the API. Its members can still sign in and see your reason.',
              )}
        </Text>
        <Group>
          <Button color={locked ? 'blue' : 'red'} variant="light" onClick={() => setOpened(true)}>
            {locked ? t('Unlock sub-account') : t('Lock sub-account')}
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={opened}
        onClose={close}
        title={locked ? t('Unlock this sub-account?') : t('Lock this sub-account?')}
        centered
      >
        <Stack>
          <Text size="sm">
            {locked
              ? t('{{name}} can send and use the API again.', { name: account.name })
              : t('{{name}} stops sending at once, and its API keys are refused.', { name: account.name })}
          </Text>
          {!locked && (
            <TextInput
              label={t('Reason (shown to its members)')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={reasonError}
              required
            />
          )}
          <FormAlert message={setLock.error ? setLock.error.message : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              {t('Cancel')}
            </Button>
            <Button color={locked ? 'blue' : 'red'} onClick={confirm} loading={setLock.isPending}>
              {locked ? t('Unlock') : t('Lock')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
