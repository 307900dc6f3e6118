import { useMemo, useState } from 'react';
import { useT } from '@/lib/i18n';
import { Can } from '@/components/can';
import { Card, EmptyState, Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMessages, IconSearch } from '@/components/icons';
import { useInbound } from '../api/get-inbound';
import type { InboundQueryFilters } from '../api/inbound-keys';
import { useKeysetRows } from '../api/use-keyset-rows';
import { ListLoadError } from './list-load-error';
import { countLabel, ListToolbar } from './list-toolbar';
import { LoadMoreButton } from './load-more-button';
import { InboundTable } from './inbound-table';
import { SuppressionsCard } from './suppressions-card';

/**
 * Replies and other SMS sent to the account's numbers, newest first, with the suppression list
 * beside them. The hub's InboundSmsReceived push refreshes both (lib/hub/hub-sync.ts).
 */
export function InboxSection() {
  const t = useT();
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
  const messages = useKeysetRows(inbox.data);
  const filtered = Boolean(filters.from || filters.text);
  const loading = inbox.isPending;

  return (
    <Stack>
      <Card withBorder radius="md" padding={0}>
        <ListToolbar
          status={
            loading
              ? t('Loading inbox…')
              : countLabel(
                  messages.length,
                  inbox.hasNextPage,
                  '{{count}} message received',
                  '{{count}} messages received',
                )
          }
          refreshing={inbox.isFetching && !loading}
        >
          <Group gap="xs">
            <TextInput
              size="xs"
              aria-label={t('From number')}
              placeholder={t('From number')}
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              w={160}
            />
            <TextInput
              size="xs"
              aria-label={t('Search inbox text')}
              placeholder={t('Search text')}
              leftSection={<IconSearch />}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              w={180}
            />
          </Group>
        </ListToolbar>
        {inbox.isError && !inbox.data ? (
          <ListLoadError
            title={t('Could not load the inbox')}
            error={inbox.error}
            onRetry={() => void inbox.refetch()}
          />
        ) : !loading && messages.length === 0 ? (
          <EmptyState
            variant="light"
            size="lg"
            icon={<IconMessages size={30} />}
            title={filtered ? t('No inbound messages match') : t('No inbound messages yet')}
            description={
              filtered
                ? t('Try another number or search text.')
                : t(
                    'Replies to your messages appear here as they arrive. A reply of STOP adds the number to your suppressed numbers.',
                  )
            }
            py={48}
          />
        ) : (
          <InboundTable messages={messages} loading={loading} />
        )}
        <LoadMoreButton query={inbox} />
      </Card>
      {/* The suppression list is the contacts' (contacts:read): a developer reads the inbox only. */}
      <Can permission="contacts:read">
        <SuppressionsCard />
      </Can>
    </Stack>
  );
}
