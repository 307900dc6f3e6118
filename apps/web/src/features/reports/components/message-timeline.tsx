import { Code, Text, Timeline } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { MessageEventDto } from '@wren/contracts';
import { formatDateTime, statusColor, statusLabel } from '../format';

/** The status history of a message, oldest first, with raw delivery receipts. */
export function MessageTimeline({ events }: { events: MessageEventDto[] }) {
  const t = useT();
  if (!events.length) {
    return (
      <Text size="sm" c="dimmed">
        {t('No status changes recorded yet.')}
      </Text>
    );
  }
  return (
    <Timeline active={events.length - 1} bulletSize={14} lineWidth={2} data-testid="message-timeline">
      {events.map((event) => (
        <Timeline.Item
          key={event.id}
          color={statusColor(event.status)}
          title={
            <Text size="sm" fw={600} c={statusColor(event.status)}>
              {statusLabel(event.status)}
            </Text>
          }
        >
          {event.detail && <Text size="sm">{event.detail}</Text>}
          <Text size="xs" c="dimmed" component="time" dateTime={event.createdAt}>
            {formatDateTime(event.createdAt)}
          </Text>
          {event.raw && (
            <Code
              block
              mt={6}
              fz="xs"
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
              aria-label={t('Raw delivery receipt')}
            >
              {event.raw}
            </Code>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
