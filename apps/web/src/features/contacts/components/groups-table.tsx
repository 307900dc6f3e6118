import { Anchor, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import type { GroupDto } from '@wren/contracts';
import { paths } from '@/config/paths';
import { IconPencil, IconTrash } from './icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { Can } from '@/components/can';
import { RowAction } from '@/components/row-action';
import { formatDate } from '@/lib/format';
import { formatNumber } from '@/lib/format';
import { translate, useT } from '@/lib/i18n';

/** Counts in the user's language (lib/format). */
export const countFormat = { format: formatNumber };

/** "3 contacts", in the language shown when it is called. */
export const contactsLabel = (n: number) =>
  n === 1
    ? translate('{{count}} contact', { count: countFormat.format(n) })
    : translate('{{count}} contacts', { count: countFormat.format(n) });

interface GroupsTableProps {
  groups: GroupDto[];
  onRename: (group: GroupDto) => void;
  onDelete: (group: GroupDto) => void;
}

export function GroupsTable({ groups, onRename, onDelete }: GroupsTableProps) {
  const t = useT();
  return (
    <ResponsiveTable minWidth={560} verticalSpacing="sm" highlightOnHover aria-label={t('Contact groups')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Name')}</Table.Th>
          <Table.Th ta="right">{t('Contacts')}</Table.Th>
          <Table.Th>{t('Last changed')}</Table.Th>
          <Table.Th w={100}>
            <VisuallyHidden>{t('Actions')}</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {groups.map((group) => (
          <Table.Tr key={group.id} data-testid="group-row">
            <Table.Td data-label={t('Name')}>
              <Anchor component={Link} to={paths.groups.contacts.getHref(group.id)} fw={600}>
                {group.name}
              </Anchor>
            </Table.Td>
            <Table.Td data-label={t('Contacts')} ta="right">
              <Text size="sm" ff="monospace">
                {countFormat.format(group.contactCount)}
              </Text>
            </Table.Td>
            <Table.Td data-label={t('Last changed')}>
              <Text size="sm" c="dimmed">
                {formatDate(group.updatedAt)}
              </Text>
            </Table.Td>
            <Table.Td data-label="">
              <Can permission="contacts:write">
                <Group gap={2} justify="flex-end" wrap="nowrap">
                  <RowAction
                    tip={t('Rename')}
                    label={t('Rename group {{name}}', { name: group.name })}
                    onClick={() => onRename(group)}
                  >
                    <IconPencil />
                  </RowAction>
                  <RowAction
                    tip={t('Delete')}
                    label={t('Delete group {{name}}', { name: group.name })}
                    danger
                    onClick={() => onDelete(group)}
                  >
                    <IconTrash />
                  </RowAction>
                </Group>
              </Can>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ResponsiveTable>
  );
}
