import { Text, type TextProps } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { MessageDto } from '@wren/contracts';
import { formatDateTime } from '@/lib/format';

/** "Scheduled for 29 Nov 2026, 14:05" for a message still waiting for its send time; else nothing. */
export function ScheduledFor({ message, ...props }: { message: MessageDto } & TextProps) {
  const t = useT();
  if (message.status !== 'scheduled' || !message.scheduledAt) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="scheduled-for" {...props}>
      {t('Scheduled for')}{' '}
      <time dateTime={message.scheduledAt} style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(message.scheduledAt)}
      </time>
    </Text>
  );
}
