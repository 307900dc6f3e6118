import { useState } from 'react';
import { Button, EmptyState, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import type { GroupDto } from '@wren/contracts';
import { Can } from '@/components/can';
import { IconUsers } from '@/components/icons';
import { paths } from '@/config/paths';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useDeleteGroup } from '../api/delete-group';
import { useGroups } from '../api/get-groups';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { GroupNameModal } from '../components/group-name-modal';
import { contactsLabel, GroupsTable } from '../components/groups-table';
import { IconPlus, IconSearch } from '../components/icons';
import { LoadError, TableSkeleton } from '../components/load-states';
import { rich } from '../components/rich';

export default function GroupsPage() {
  const t = useT();
  const navigate = useNavigate();
  const list = useGroups();
  const remove = useDeleteGroup();
  const naming = useModalTarget<GroupDto | null>();
  const deleting = useModalTarget<GroupDto>();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const all = list.data ?? [];
  const q = query.trim().toLowerCase();
  const groups = q ? all.filter((g) => g.name.toLowerCase().includes(q)) : all;
  const total = all.reduce((sum, g) => sum + g.contactCount, 0);

  const askDelete = (group: GroupDto) => {
    setDeleteError(null);
    deleting.open(group);
  };

  const confirmDelete = async () => {
    const group = deleting.target;
    if (!group) return;
    try {
      await remove.mutateAsync(group.id);
      toast.success(t('Group "{{name}}" has been deleted.', { name: group.name }));
      deleting.close();
    } catch (error) {
      setDeleteError(messageOf(error));
    }
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <Group justify="space-between" p="md" wrap="wrap" gap="sm">
          <div>
            <Title order={2} size="h4">
              {t('Your groups')}
            </Title>
            <Text size="sm" c="dimmed">
              {list.data
                ? all.length === 1
                  ? t('{{count}} group · {{contacts}} in all', {
                      count: all.length,
                      contacts: contactsLabel(total),
                    })
                  : t('{{count}} groups · {{contacts}} in all', {
                      count: all.length,
                      contacts: contactsLabel(total),
                    })
                : t('Lists of contacts you can send bulk and personalised messages to')}
            </Text>
          </div>
          <Group gap="sm">
            {all.length > 0 && (
              <TextInput
                aria-label={t('Search groups')}
                placeholder={t('Search groups')}
                leftSection={<IconSearch size={16} />}
                value={query}
                onChange={(e) => setQuery(e.currentTarget.value)}
                w={220}
              />
            )}
            <Can permission="contacts:write">
              <Button leftSection={<IconPlus />} onClick={() => naming.open(null)}>
                {t('New group')}
              </Button>
            </Can>
          </Group>
        </Group>
        {list.isPending && <TableSkeleton label={t('Loading groups')} />}
        {list.isError && (
          <LoadError
            title={t('The groups could not be loaded')}
            message={messageOf(list.error)}
            onRetry={() => void list.refetch()}
          />
        )}
        {list.isSuccess && all.length === 0 && (
          <EmptyState
            variant="light"
            size="lg"
            py={48}
            icon={<IconUsers size={32} />}
            title={t('No contact groups yet')}
            description={t(
              'Create a group, then add contacts one by one or import them from a CSV or Excel file.',
            )}
          >
            <Can permission="contacts:write">
              <EmptyState.Actions>
                <Button leftSection={<IconPlus />} onClick={() => naming.open(null)}>
                  {t('Create your first group')}
                </Button>
              </EmptyState.Actions>
            </Can>
          </EmptyState>
        )}
        {all.length > 0 && groups.length === 0 && (
          <Text c="dimmed" ta="center" py="xl">
            {t('No group matches “{{query}}”.', { query: query.trim() })}
          </Text>
        )}
        {groups.length > 0 && <GroupsTable groups={groups} onRename={naming.open} onDelete={askDelete} />}
      </Paper>

      <GroupNameModal
        opened={naming.opened}
        group={naming.target}
        onClose={naming.close}
        onCreated={(group) => void navigate(paths.groups.contacts.getHref(group.id))}
      />
      <ConfirmDeleteModal
        opened={deleting.opened}
        title={t('Delete group')}
        confirmLabel={t('Delete group')}
        loading={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={deleting.close}
      >
        {deleting.target && deleting.target.contactCount > 0
          ? rich(t, 'Delete the group {{name}} and the {{contacts}} in it? This cannot be undone.', {
              name: <b>{deleting.target.name}</b>,
              contacts: <b>{contactsLabel(deleting.target.contactCount)}</b>,
            })
          : rich(t, 'Delete the group {{name}}? This cannot be undone.', {
              name: <b>{deleting.target?.name}</b>,
            })}
      </ConfirmDeleteModal>
    </Stack>
  );
}
