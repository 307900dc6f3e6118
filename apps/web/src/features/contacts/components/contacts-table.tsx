import { Badge, Checkbox, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ContactDto } from '@wren/contracts';
import { IconPencil, IconTrash } from './icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { RowAction } from '@/components/row-action';
import { useCan } from '@/lib/account-role';
import { formatDate } from '@/lib/format';
import { useT } from '@/lib/i18n';

const MAX_FIELD_BADGES = 3;

export const contactLabel = (c: Pick<ContactDto, 'name' | 'phone'>) => c.name || c.phone;

function FieldBadges({ fields }: { fields: Record<string, string> }) {
  const t = useT();
  const entries = Object.entries(fields);
  if (!entries.length)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Group gap={4}>
      {entries.slice(0, MAX_FIELD_BADGES).map(([key, value]) => (
        <Badge key={key} variant="default" tt="none" fw={400} maw={200}>
          <Text span size="xs" c="dimmed">
            {key}:
          </Text>{' '}
          {value || '—'}
        </Badge>
      ))}
      {entries.length > MAX_FIELD_BADGES && (
        <Badge variant="transparent" tt="none" c="dimmed">
          {t('+{{count}} more', { count: entries.length - MAX_FIELD_BADGES })}
        </Badge>
      )}
    </Group>
  );
}

interface ContactsTableProps {
  contacts: ContactDto[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  onEdit: (contact: ContactDto) => void;
  onDelete: (contact: ContactDto) => void;
}

export function ContactsTable({
  contacts,
  selected,
  onToggle,
  onToggleAll,
  onEdit,
  onDelete,
}: ContactsTableProps) {
  // Selecting (to delete), Edit and Delete are contacts:write's: a reader sees the contacts only.
  const t = useT();
  const canWrite = useCan('contacts:write');
  const selectedHere = contacts.filter((c) => selected.has(c.id)).length;
  const all = selectedHere > 0 && selectedHere === contacts.length;
  return (
    <ResponsiveTable minWidth={720} verticalSpacing="xs" highlightOnHover aria-label={t('Contacts')}>
      <Table.Thead>
        <Table.Tr>
          {canWrite && (
            <Table.Th w={40}>
              <Checkbox
                aria-label={t('Select all loaded contacts')}
                checked={all}
                indeterminate={selectedHere > 0 && !all}
                onChange={onToggleAll}
              />
            </Table.Th>
          )}
          <Table.Th>{t('Name')}</Table.Th>
          <Table.Th>{t('Phone')}</Table.Th>
          <Table.Th>{t('Custom fields')}</Table.Th>
          <Table.Th>{t('Added')}</Table.Th>
          {canWrite && (
            <Table.Th w={90}>
              <VisuallyHidden>{t('Actions')}</VisuallyHidden>
            </Table.Th>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {contacts.map((contact) => {
          const isSelected = selected.has(contact.id);
          return (
            <Table.Tr
              key={contact.id}
              data-testid="contact-row"
              bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}
            >
              {canWrite && (
                <Table.Td data-label={t('Select')}>
                  <Checkbox
                    aria-label={t('Select {{name}}', { name: contactLabel(contact) })}
                    checked={isSelected}
                    onChange={() => onToggle(contact.id)}
                  />
                </Table.Td>
              )}
              <Table.Td data-label={t('Name')}>
                {contact.name ? (
                  <Text size="sm" fw={500}>
                    {contact.name}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed" fs="italic">
                    {t('No name')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td data-label={t('Phone')}>
                <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                  {contact.phone}
                </Text>
              </Table.Td>
              <Table.Td data-label={t('Custom fields')}>
                <FieldBadges fields={contact.fields} />
              </Table.Td>
              <Table.Td data-label={t('Added')}>
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatDate(contact.createdAt)}
                </Text>
              </Table.Td>
              {canWrite && (
                <Table.Td data-label="">
                  <Group gap={2} justify="flex-end" wrap="nowrap">
                    <RowAction
                      tip={t('Edit')}
                      label={t('Edit {{name}}', { name: contactLabel(contact) })}
                      onClick={() => onEdit(contact)}
                    >
                      <IconPencil />
                    </RowAction>
                    <RowAction
                      tip={t('Delete')}
                      label={t('Delete {{name}}', { name: contactLabel(contact) })}
                      danger
                      onClick={() => onDelete(contact)}
                    >
                      <IconTrash />
                    </RowAction>
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </ResponsiveTable>
  );
}
