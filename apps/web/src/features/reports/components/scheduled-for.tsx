import { Text, type TextProps } from '@mantine/core';
import type { MessageDto } from '@wren/contracts';
import { formatDateTime } from '@/lib/format';

/** "Scheduled for 29 Nov 2026, 14:05" for a message still waiting for its send time; else nothing. */
export function ScheduledFor({ message, ...props }: { message: MessageDto } & TextProps) {
  if (message.status !== 'scheduled' || !message.scheduledAt) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="scheduled-for" {...props}>
      Scheduled for{' '}
      <time dateTime={message.scheduledAt} style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(message.scheduledAt)}
      </time>
    </Text>
  );
}
