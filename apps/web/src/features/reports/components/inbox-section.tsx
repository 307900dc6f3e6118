import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Center,
  EmptyState,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMessages, IconSearch } from '@/components/icons';
import { useInbound } from '../api/get-inbound';
import type { InboundQueryFilters } from '../api/inbound-keys';
import { InboundTable } from './inbound-table';
import { SuppressionsCard } from './suppressions-card';

/**
 * Replies and other SMS sent to the account's numbers, newest first, with the suppression list
 * beside them. The hub's InboundSmsReceived push refreshes both (lib/hub/hub-sync.ts).
 */
export function InboxSection() {
  const [from, setFrom] = useState('');
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue({ from, text }, 300);
  const filters = useMemo<InboundQueryFilters>(() => {
    const f: InboundQueryFilters = {};
    if (debounced.from.trim()) f.from = debounced.from.trim();
    if (debounced.text.trim()) f.text = debounced.text.trim();
    return f;
  }, [debounced]);
  const inbox = useInbound(filters);
  const messages = useMemo(() => inbox.data?.pages.flatMap((p) => p.items) ?? [], [inbox.data]);
  const filtered = Boolean(filters.from || filters.text);
  const loading = inbox.isPending;

  return (
    <Stack>
      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" px="md" py="sm" wrap="wrap" gap="sm">
          <Group gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {loading
                ? 'Loading inbox…'
                : `${messages.length}${inbox.hasNextPage ? '+' : ''} ${messages.length === 1 ? 'message' : 'messages'} received`}
            </Text>
            {inbox.isFetching && !loading && <Loader size="xs" aria-label="Refreshing" />}
          </Group>
          <Group gap="xs">
            <TextInput
              size="xs"
              aria-label="From number"
              placeholder="From number"
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              w={160}
            />
            <TextInput
              size="xs"
              aria-label="Search inbox text"
              placeholder="Search text"
              leftSection={<IconSearch />}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              w={180}
            />
          </Group>
        </Group>
        {inbox.isError && !inbox.data ? (
          <Alert color="red" variant="light" m="md" title="Could not load the inbox">
            {inbox.error.message}
            <Button
              size="xs"
              variant="light"
              color="red"
              mt="sm"
              display="block"
              onClick={() => void inbox.refetch()}
            >
              Try again
            </Button>
          </Alert>
        ) : !loading && messages.length === 0 ? (
          <EmptyState
            variant="light"
            size="lg"
            icon={<IconMessages size={30} />}
            title={filtered ? 'No inbound messages match' : 'No inbound messages yet'}
            description={
              filtered
                ? 'Try another number or search text.'
                : 'Replies to your messages appear here as they arrive. A reply of STOP adds the number to your suppressed numbers.'
            }
            py={48}
          />
        ) : (
          <InboundTable messages={messages} loading={loading} />
        )}
        {inbox.hasNextPage && (
          <Center p="md">
            <Button
              variant="light"
              onClick={() => void inbox.fetchNextPage()}
              loading={inbox.isFetchingNextPage}
            >
              Load more
            </Button>
          </Center>
        )}
      </Card>
      <SuppressionsCard />
    </Stack>
  );
}
