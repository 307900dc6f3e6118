import { Group, Loader, Select, TextInput } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { ContactSort } from '../api/get-contacts';
import { IconSearch } from './icons';

/** The sort choices; labels are keys, translated when shown. */
const SORTS: { value: ContactSort; label: string }[] = [
  { value: 'created', label: 'Newest first' },
  { value: 'name', label: 'Name (A–Z)' },
];

interface ContactsToolbarProps {
  search: string;
  sort: ContactSort;
  searching: boolean;
  onSearch: (value: string) => void;
  onSort: (value: ContactSort) => void;
}

export function ContactsToolbar({ search, sort, searching, onSearch, onSort }: ContactsToolbarProps) {
  const t = useT();
  return (
    <Group gap="sm" p="md" wrap="wrap">
      <TextInput
        aria-label={t('Search contacts')}
        placeholder={t('Search by name or number')}
        type="search"
        leftSection={<IconSearch size={16} />}
        rightSection={searching ? <Loader size={14} /> : null}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
        style={{ flex: 1, minWidth: 220 }}
        maxLength={100}
      />
      <Select
        aria-label={t('Sort contacts')}
        data={SORTS.map((s) => ({ value: s.value, label: t(s.label) }))}
        value={sort}
        onChange={(value) => value && onSort(value)}
        allowDeselect={false}
        w={170}
      />
    </Group>
  );
}
