import { Paper, SegmentedControl, Table, Text } from '@mantine/core';
import type { AdminAccountDetail, UserRole } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useCurrentUser } from '@/lib/use-session';
import { toast } from '@/lib/toast';
import { useSetRole } from '../api/admin-api';
import { SectionHeader, When } from './common';

/** The account's users, their activity and sessions, and their role (user or admin). */
export function AccountUsersCard({ account }: { account: AdminAccountDetail }) {
  const t = useT();
  const setRole = useSetRole(account.id);
  const me = useCurrentUser();
  const change = async (userId: string, role: UserRole) => {
    try {
      await setRole.mutateAsync({ userId, role });
      toast.success(role === 'admin' ? t('The user is now an admin.') : t('The user is no longer an admin.'));
    } catch (e) {
      toast.error(messageOf(e));
    }
  };
  return (
    <Paper withBorder radius="md">
      <SectionHeader title={t('Users')} hint={t('A role change signs the user out so it applies at once')} />
      <ResponsiveTable minWidth={700} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('User')}</Table.Th>
            <Table.Th>{t('Email / phone')}</Table.Th>
            <Table.Th>{t('Last activity')}</Table.Th>
            <Table.Th>{t('Sessions')}</Table.Th>
            <Table.Th>{t('Role')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {account.users.map((u) => (
            <Table.Tr key={u.id}>
              <Table.Td data-label={t('User')}>
                <Text fw={600} size="sm">
                  {u.username}
                </Text>
                <Text size="xs" c="dimmed">
                  {u.name}
                </Text>
              </Table.Td>
              <Table.Td data-label={t('Email / phone')}>
                <Text size="sm">{u.email}</Text>
                <Text size="xs" c="dimmed">
                  <span dir="ltr">{u.phone}</span>
                </Text>
              </Table.Td>
              <Table.Td data-label={t('Last activity')}>
                <When at={u.lastActivityAt} empty={t('Never')} />
              </Table.Td>
              <Table.Td data-label={t('Sessions')}>{u.activeSessions}</Table.Td>
              <Table.Td data-label={t('Role')}>
                <SegmentedControl
                  size="xs"
                  aria-label={t('Role of {{username}}', { username: u.username })}
                  value={u.role}
                  disabled={setRole.isPending || u.id === me?.id}
                  onChange={(v) => void change(u.id, v)}
                  data={[
                    { value: 'user', label: t('User') },
                    { value: 'admin', label: t('Admin') },
                  ]}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ResponsiveTable>
    </Paper>
  );
}
