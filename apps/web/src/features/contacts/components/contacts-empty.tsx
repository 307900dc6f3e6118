import { Button, EmptyState, Text } from '@mantine/core';
import { Can } from '@/components/can';
import { IconUsers } from '@/components/icons';
import { useT } from '@/lib/i18n';
import { IconPlus, IconUpload } from './icons';

interface ContactsEmptyProps {
  query: string;
  onAdd: () => void;
  onImport: () => void;
}

/** No contacts at all (with the ways to add some), or none matching the search. */
export function ContactsEmpty({ query, onAdd, onImport }: ContactsEmptyProps) {
  const t = useT();
  if (query.trim()) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('No contact matches “{{query}}”.', { query: query.trim() })}
      </Text>
    );
  }
  return (
    <EmptyState
      variant="light"
      size="lg"
      py={48}
      icon={<IconUsers size={32} />}
      title={t('This group has no contacts yet')}
      description={t('Add people one by one, or import a list from a CSV, TXT or Excel file.')}
    >
      <Can permission="contacts:write">
        <EmptyState.Actions>
          <Button variant="default" leftSection={<IconUpload />} onClick={onImport}>
            {t('Import a file')}
          </Button>
          <Button leftSection={<IconPlus />} onClick={onAdd}>
            {t('Add contact')}
          </Button>
        </EmptyState.Actions>
      </Can>
    </EmptyState>
  );
}
