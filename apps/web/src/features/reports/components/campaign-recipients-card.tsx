import { useState } from 'react';
import { useT } from '@/lib/i18n';
import { Card, Center, Group, Loader, Select, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { MESSAGE_STATUSES, type CampaignDto, type MessageStatus } from '@wren/contracts';
import { IconSearch } from '@/components/icons';
import { useCampaignMessages } from '@/features/campaigns';
import { useKeysetRows } from '../api/use-keyset-rows';
import { statusLabel } from '../format';
import { LoadMoreButton } from './load-more-button';
import { MessageDrawer } from './message-drawer';
import { SmsLogTable } from './sms-log-table';

interface CampaignRecipientsCardProps {
  c: CampaignDto;
  zone: string;
  /** The status filter (the export takes it too). */
  status: MessageStatus | null;
  onStatusChange: (status: MessageStatus | null) => void;
}

/** Every recipient's message, a page at a time, by number and status; a row opens its details. */
export function CampaignRecipientsCard({
  c,
  zone,
  status,
  onStatusChange: setStatus,
}: CampaignRecipientsCardProps) {
  const t = useT();
  const [search, setSearch] = useState('');
  const [recipient] = useDebouncedValue(search.trim(), 300);
  const messages = useCampaignMessages(c.id, {
    status: status ?? undefined,
    recipient: recipient || undefined,
  });
  const rows = useKeysetRows(messages.data);
  const [open, setOpen] = useState<string | null>(null);

  return (
    <>
      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" px="md" py="sm" wrap="wrap">
          <Group gap="sm">
            <Title order={3} size="h5">
              {t('Recipients')}
            </Title>
            {messages.isFetching && !messages.isPending && <Loader size="xs" aria-label={t('Refreshing')} />}
          </Group>
          <Group gap="sm">
            <TextInput
              placeholder={t('Search a number')}
              aria-label={t('Search a number')}
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={200}
            />
            <Select
              aria-label={t('Status')}
              placeholder={t('Any status')}
              data={MESSAGE_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
              value={status}
              onChange={(v) => setStatus(v)}
              clearable
              w={160}
            />
          </Group>
        </Group>
        {!messages.isPending && rows.length === 0 ? (
          <Center p="xl">
            <Text size="sm" c="dimmed">
              {status || recipient
                ? t('No recipient matches.')
                : c.status === 'scheduled'
                  ? t('The messages are created when the campaign starts.')
                  : t('No messages yet.')}
            </Text>
          </Center>
        ) : (
          <SmsLogTable messages={rows} loading={messages.isPending} selectedId={open} onOpen={setOpen} />
        )}
        <LoadMoreButton query={messages} />
      </Card>
      <MessageDrawer id={open} timezone={zone} onClose={() => setOpen(null)} />
    </>
  );
}
