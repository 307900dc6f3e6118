import { useState } from 'react';
import { Menu, Modal, Text, UnstyledButton, Group } from '@mantine/core';
import { ACCOUNT_ROLE_LABELS, type TwoFactorChallenge } from '@wren/contracts';
import { useNavigate } from 'react-router';
import { IconUsers } from '@/components/icons';
import { paths } from '@/config/paths';
import { EnrollStep } from '@/features/auth';
import { toast } from '@/lib/toast';
import { startSession, useMyAccounts, useSwitchAccount } from '../api/members';
import { useT } from '@/lib/i18n';

/**
 * The header's account switcher, shown when the user belongs to more than one account (issue 39):
 * the current account's name (an icon alone on a phone) opening a menu of the user's accounts.
 */
export function AccountSwitcher() {
  const accounts = useMyAccounts();
  const switchAccount = useSwitchAccount();
  const navigate = useNavigate();
  const t = useT();
  // Switching into an account that requires two-factor, without it: enrollment first (a dialog).
  const [enroll, setEnroll] = useState<{ challenge: TwoFactorChallenge; name: string } | null>(null);
  const items = accounts.data ?? [];
  if (items.length < 2) return null;
  const current = items.find((a) => a.current);
  const switched = async (name: string) => {
    toast.success(t('Switched to {{name}}', { name }));
    await navigate(paths.dashboard.getHref());
  };
  const choose = (accountId: string, name: string) => {
    if (accountId === current?.accountId) return;
    switchAccount.mutate(accountId, {
      onSuccess: (result) => {
        if ('twoFactor' in result) setEnroll({ challenge: result, name });
        else void switched(name);
      },
      onError: (e) => toast.error(e.message),
    });
  };
  return (
    <>
      <Modal
        opened={enroll !== null}
        onClose={() => setEnroll(null)}
        title={enroll ? t('Switch to {{name}}', { name: enroll.name }) : undefined}
      >
        {enroll && (
          <EnrollStep
            challenge={enroll.challenge.challenge}
            onSession={startSession}
            onSignedIn={async () => {
              const { name } = enroll;
              setEnroll(null);
              await switched(name);
            }}
          />
        )}
      </Modal>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <UnstyledButton
            aria-label={current ? t('Account: {{name}}', { name: current.name }) : t('Account: choose')}
            disabled={switchAccount.isPending}
            px={6}
            py={4}
            style={{ borderRadius: 6 }}
          >
            <Group gap={6} wrap="nowrap">
              <IconUsers />
              <Text size="sm" fw={500} truncate maw={180} visibleFrom="sm">
                {current?.name}
              </Text>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{t('Switch account')}</Menu.Label>
          {items.map((a) => (
            <Menu.Item
              key={a.accountId}
              onClick={() => choose(a.accountId, a.name)}
              aria-current={a.current ? 'true' : undefined}
              rightSection={
                <Text size="xs" c="dimmed">
                  {t(ACCOUNT_ROLE_LABELS[a.role])}
                </Text>
              }
            >
              <Text size="sm" fw={a.current ? 600 : 400}>
                {a.name}
              </Text>
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
