import { useMemo, useState } from 'react';
import { ActionBar, Button, Center, EmptyState, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useParams } from 'react-router';
import type { ContactDto } from '@wren/contracts';
import { IconUsers } from '@/components/icons';
import { paths } from '@/config/paths';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useDeleteContacts } from '../api/delete-contacts';
import { useExportContacts } from '../api/export-contacts';
import { useContacts, type ContactSort } from '../api/get-contacts';
import { useGroup } from '../api/get-group';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { ContactFormModal } from '../components/contact-form-modal';
import { ContactsEmpty } from '../components/contacts-empty';
import { contactLabel, ContactsTable } from '../components/contacts-table';
import { ContactsToolbar } from '../components/contacts-toolbar';
import { GroupHeader } from '../components/group-header';
import { countFormat } from '../components/groups-table';
import { IconTrash } from '../components/icons';
import { ImportWizardModal } from '../components/import-wizard-modal';
import { LoadError, TableSkeleton } from '../components/load-states';
import { rich } from '../components/rich';
import { keepListed, toggleAll, toggleOne } from '../selection';

interface DeleteTarget {
  ids: string[];
  label: string;
}

function GroupNotFound() {
  const t = useT();
  return (
    <Paper withBorder radius="md">
      <EmptyState
        size="lg"
        py={48}
        icon={<IconUsers size={32} />}
        title={t('This group does not exist')}
        description={t('It may have been deleted.')}
      >
        <EmptyState.Actions>
          <Button component={Link} to={paths.groups.list.getHref()} variant="default">
            {t('Back to groups')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}

export default function GroupContactsPage() {
  const t = useT();
  const groupId = useParams().id ?? '';
  const group = useGroup(groupId);
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search, 300);
  const [sort, setSort] = useState<ContactSort>('created');
  const contacts = useContacts(groupId, { q: query, sort });
  const remove = useDeleteContacts(groupId);
  const exporter = useExportContacts();
  const editing = useModalTarget<ContactDto | null>();
  const deleting = useModalTarget<DeleteTarget>();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [picked, setPicked] = useState<Set<string>>(new Set());

  const loaded = useMemo(() => contacts.data?.pages.flatMap((p) => p.items) ?? [], [contacts.data]);
  const ids = useMemo(() => loaded.map((c) => c.id), [loaded]);
  const selected = useMemo(() => keepListed(picked, ids), [picked, ids]);
  const knownKeys = useMemo(
    () => [...new Set(loaded.flatMap((c) => Object.keys(c.fields)))].sort(),
    [loaded],
  );

  // 404: no such group (or another account's); 400: the id in the address is not a group id.
  if (group.error instanceof HttpError && [400, 404].includes(group.error.status)) return <GroupNotFound />;

  const askDelete = (target: DeleteTarget) => {
    setDeleteError(null);
    deleting.open(target);
  };

  const confirmDelete = async () => {
    const target = deleting.target;
    if (!target) return;
    try {
      const deleted = await remove.mutateAsync(target.ids);
      toast.success(
        deleted === 1
          ? t('{{name}} has been deleted.', { name: target.label })
          : t('{{count}} contacts have been deleted.', { count: countFormat.format(deleted) }),
      );
      setPicked((current) => new Set([...current].filter((id) => !target.ids.includes(id))));
      deleting.close();
    } catch (error) {
      setDeleteError(messageOf(error));
    }
  };

  const exportCsv = async () => {
    try {
      const fileName = await exporter.mutateAsync(groupId);
      toast.success(t('The contacts were saved as {{fileName}}.', { fileName }));
    } catch (error) {
      toast.error(messageOf(error));
    }
  };

  const total = group.data?.contactCount ?? 0;
  const searching = search !== query || (contacts.isFetching && !contacts.isFetchingNextPage);

  return (
    <Stack gap="lg">
      <GroupHeader
        group={group.data}
        exporting={exporter.isPending}
        onImport={() => setImporting(true)}
        onExport={() => void exportCsv()}
        onAdd={() => editing.open(null)}
      />
      <Paper withBorder radius="md">
        {(total > 0 || query) && (
          <ContactsToolbar
            search={search}
            sort={sort}
            searching={searching}
            onSearch={setSearch}
            onSort={setSort}
          />
        )}
        {contacts.isPending && <TableSkeleton label={t('Loading contacts')} />}
        {contacts.isError && !contacts.data && (
          <LoadError
            title={t('The contacts could not be loaded')}
            message={messageOf(contacts.error)}
            onRetry={() => void contacts.refetch()}
          />
        )}
        {contacts.isSuccess && loaded.length === 0 && (
          <ContactsEmpty query={query} onAdd={() => editing.open(null)} onImport={() => setImporting(true)} />
        )}
        {loaded.length > 0 && (
          <ContactsTable
            contacts={loaded}
            selected={selected}
            onToggle={(id) => setPicked(toggleOne(selected, id))}
            onToggleAll={() => setPicked(toggleAll(selected, ids))}
            onEdit={editing.open}
            onDelete={(c) => askDelete({ ids: [c.id], label: contactLabel(c) })}
          />
        )}
        {loaded.length > 0 && (
          <Center p="md" style={{ flexDirection: 'column', gap: 8 }}>
            <Text size="sm" c="dimmed" data-testid="contacts-shown">
              {query
                ? t('Showing {{count}} matching', { count: countFormat.format(loaded.length) })
                : t('Showing {{count}} of {{total}}', {
                    count: countFormat.format(loaded.length),
                    total: countFormat.format(Math.max(total, loaded.length)),
                  })}
            </Text>
            {contacts.hasNextPage && (
              <Button
                variant="default"
                onClick={() => void contacts.fetchNextPage()}
                loading={contacts.isFetchingNextPage}
              >
                {t('Load more')}
              </Button>
            )}
          </Center>
        )}
      </Paper>

      <ActionBar
        opened={selected.size > 0 && !deleting.opened}
        aria-label={t('Selected contacts')}
        onClose={() => setPicked(new Set())}
        closeOnEscape
      >
        <Text size="sm" fw={500} px="xs" data-testid="selected-count">
          {t('{{count}} selected', { count: countFormat.format(selected.size) })}
        </Text>
        <ActionBar.Divider />
        <Button
          color="red"
          variant="light"
          size="xs"
          leftSection={<IconTrash size={14} />}
          onClick={() =>
            askDelete({
              ids: [...selected],
              label: t('{{count}} contacts', { count: countFormat.format(selected.size) }),
            })
          }
        >
          {t('Delete selected')}
        </Button>
        <ActionBar.CloseButton aria-label={t('Clear selection')} />
      </ActionBar>

      <ContactFormModal
        opened={editing.opened}
        groupId={groupId}
        contact={editing.target}
        knownKeys={knownKeys}
        onClose={editing.close}
      />
      <ImportWizardModal
        opened={importing}
        groupId={groupId}
        groupName={group.data?.name ?? ''}
        onClose={() => setImporting(false)}
      />
      <ConfirmDeleteModal
        opened={deleting.opened}
        title={deleting.target && deleting.target.ids.length > 1 ? t('Delete contacts') : t('Delete contact')}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={deleting.close}
      >
        {rich(t, 'Delete {{name}} from this group? This cannot be undone.', {
          name: <b>{deleting.target?.label}</b>,
        })}
      </ConfirmDeleteModal>
    </Stack>
  );
}
