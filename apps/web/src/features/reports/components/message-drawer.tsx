import { useState } from 'react';
import {
  Alert,
  Button,
  CopyButton,
  DataList,
  Divider,
  Drawer,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { MessageDto } from '@wren/contracts';
import { useSmsMessage } from '../api/get-sms-message';
import { Can } from '@/components/can';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { formatDateTime, formatInZone } from '../format';
import { CancelMessageModal } from './cancel-message-modal';
import { MessageTimeline } from './message-timeline';
import { StatusBadge } from './status-badge';

interface MessageDrawerProps {
  id: string | null;
  timezone: string;
  onClose: () => void;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}

function Details({ message, timezone }: { message: MessageDto; timezone: string }) {
  const t = useT();
  return (
    <DataList size="sm" labelWidth={130} withDivider>
      <Field label={t('Status')}>
        <StatusBadge status={message.status} />
      </Field>
      <Field label={t('Recipient')}>{message.recipient}</Field>
      <Field label={t('Sender')}>{message.sender}</Field>
      <Field label={t('Created')}>{formatDateTime(message.createdAt)}</Field>
      {message.scheduledAt && (
        <Field label={t('Scheduled for')}>{formatInZone(message.scheduledAt, timezone)}</Field>
      )}
      {message.submittedAt && <Field label={t('Submitted')}>{formatDateTime(message.submittedAt)}</Field>}
      {message.status === 'sent' && message.submittedAt && (
        <Field label={t('Receipt')}>
          <Text size="sm" data-testid="drawer-awaiting-receipt">
            {message.receiptDueAt
              ? t(
                  'Waiting for the delivery receipt since {{since}}, deadline {{deadline}}: if none arrives by then, the outcome becomes unknown',
                  {
                    since: formatDateTime(message.submittedAt),
                    deadline: formatDateTime(message.receiptDueAt),
                  },
                )
              : t('Waiting for the delivery receipt since {{since}}', {
                  since: formatDateTime(message.submittedAt),
                })}
          </Text>
        </Field>
      )}
      {message.doneAt && <Field label={t('Completed')}>{formatDateTime(message.doneAt)}</Field>}
      <Field label={t('Encoding')}>
        {message.segments === 1
          ? t('{{encoding}}, {{count}} segment', { encoding: message.encoding, count: message.segments })
          : t('{{encoding}}, {{count}} segments', { encoding: message.encoding, count: message.segments })}
      </Field>
      <Field label={t('Cost')}>{formatMoney(message.priceMinor, message.currency)}</Field>
      {message.error && (
        <Field label={t('Error')}>
          <Text size="sm" c="red">
            {message.error}
          </Text>
        </Field>
      )}
      <Field label={t('Message ID')}>
        <Group gap={6} wrap="nowrap">
          <Text size="xs" ff="monospace" truncate>
            {message.id}
          </Text>
          <CopyButton value={message.id}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="subtle" onClick={copy}>
                {copied ? t('Copied') : t('Copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Field>
    </DataList>
  );
}

/** One message: its details, text and status timeline; a scheduled one can be canceled here. */
export function MessageDrawer({ id, timezone, onClose }: MessageDrawerProps) {
  const t = useT();
  const detail = useSmsMessage(id);
  const [canceling, setCanceling] = useState<MessageDto | null>(null);
  const message = detail.data?.message;

  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="lg" title={t('Message details')}>
      {detail.isPending && (
        <Stack>
          <Skeleton h={24} w="40%" />
          <Skeleton h={160} />
          <Skeleton h={120} />
        </Stack>
      )}
      {detail.isError && (
        <Alert color="red" variant="light" title={t('Could not load this message')}>
          {detail.error.message}
          <Button
            size="xs"
            variant="light"
            color="red"
            mt="sm"
            display="block"
            onClick={() => void detail.refetch()}
          >
            {t('Try again')}
          </Button>
        </Alert>
      )}
      {message && detail.data && (
        <Stack>
          <Details message={message} timezone={timezone} />
          <div>
            <Title order={3} size="h6" mb={6}>
              {t('Message')}
            </Title>
            <Paper withBorder p="sm" radius="md">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {message.text}
              </Text>
            </Paper>
          </div>
          {message.status === 'scheduled' && (
            <Can permission="messages:send">
              <Group>
                <Button color="red" variant="light" onClick={() => setCanceling(message)}>
                  {t('Cancel this message')}
                </Button>
              </Group>
            </Can>
          )}
          <Divider />
          <Title order={3} size="h6">
            {t('Status timeline')}
          </Title>
          <MessageTimeline events={detail.data.events} />
        </Stack>
      )}
      <CancelMessageModal message={canceling} timezone={timezone} onClose={() => setCanceling(null)} />
    </Drawer>
  );
}
