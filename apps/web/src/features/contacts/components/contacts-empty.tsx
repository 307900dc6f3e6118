import { Button, EmptyState, Text } from '@mantine/core';
import { Can } from '@/components/can';
import { IconUsers } from '@/components/icons';
import { IconPlus, IconUpload } from './icons';

interface ContactsEmptyProps {
  query: string;
  onAdd: () => void;
  onImport: () => void;
}

/** No contacts at all (with the ways to add some), or none matching the search. */
export function ContactsEmpty({ query, onAdd, onImport }: ContactsEmptyProps) {
  if (query.trim()) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        No contact matches “{query.trim()}”.
      </Text>
    );
  }
  return (
    <EmptyState
      variant="light"
      size="lg"
      py={48}
      icon={<IconUsers size={32} />}
      title="This group has no contacts yet"
      description="Add people one by one, or import a list from a CSV, TXT or Excel file."
    >
      <Can permission="contacts:write">
        <EmptyState.Actions>
          <Button variant="default" leftSection={<IconUpload />} onClick={onImport}>
            Import a file
          </Button>
          <Button leftSection={<IconPlus />} onClick={onAdd}>
            Add contact
          </Button>
        </EmptyState.Actions>
      </Can>
    </EmptyState>
  );
}
