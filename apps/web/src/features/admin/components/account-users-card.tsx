import { Paper, SegmentedControl, Table, Text } from '@mantine/core';
import type { AdminAccountDetail, UserRole } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { messageOf } from '@/lib/http/http-error';
import { useCurrentUser } from '@/lib/use-session';
import { toast } from '@/lib/toast';
import { useSetRole } from '../api/admin-api';
import { SectionHeader, When } from './common';

/** The account's users, their activity and sessions, and their role (user or admin). */
export function AccountUsersCard({ account }: { account: AdminAccountDetail }) {
  const setRole = useSetRole(account.id);
  const me = useCurrentUser();
  const change = async (userId: string, role: UserRole) => {
    try {
      await setRole.mutateAsync({ userId, role });
      toast.success(role === 'admin' ? 'The user is now an admin.' : 'The user is no longer an admin.');
    } catch (e) {
      toast.error(messageOf(e));
    }
  };
  return (
    <Paper withBorder radius="md">
      <SectionHeader title="Users" hint="A role change signs the user out so it applies at once" />
      <ResponsiveTable minWidth={700} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>User</Table.Th>
            <Table.Th>Email / phone</Table.Th>
            <Table.Th>Last activity</Table.Th>
            <Table.Th>Sessions</Table.Th>
            <Table.Th>Role</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {account.users.map((u) => (
            <Table.Tr key={u.id}>
              <Table.Td data-label="User">
                <Text fw={600} size="sm">
                  {u.username}
                </Text>
                <Text size="xs" c="dimmed">
                  {u.name}
                </Text>
              </Table.Td>
              <Table.Td data-label="Email / phone">
                <Text size="sm">{u.email}</Text>
                <Text size="xs" c="dimmed">
                  {u.phone}
                </Text>
              </Table.Td>
              <Table.Td data-label="Last activity">
                <When at={u.lastActivityAt} empty="Never" />
              </Table.Td>
              <Table.Td data-label="Sessions">{u.activeSessions}</Table.Td>
              <Table.Td data-label="Role">
                <SegmentedControl
                  size="xs"
                  aria-label={`Role of ${u.username}`}
                  value={u.role}
                  disabled={setRole.isPending || u.id === me?.id}
                  onChange={(v) => void change(u.id, v)}
                  data={[
                    { value: 'user', label: 'User' },
                    { value: 'admin', label: 'Admin' },
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
