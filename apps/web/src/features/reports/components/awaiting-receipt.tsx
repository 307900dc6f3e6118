import { Text, type TextProps } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { MessageDto } from '@wren/contracts';
import { formatDateTime } from '@/lib/format';

/**
 * "Waiting for receipt since 29 Nov 2026, 14:05, deadline 1 Dec 2026, 14:05" on a `sent` message:
 * when no final receipt arrives by the deadline (the connection's receipt deadline, 48 h by
 * default) it ends as `unknown`. Nothing in any other status.
 */
export function AwaitingReceipt({ message, ...props }: { message: MessageDto } & TextProps) {
  const t = useT();
  if (message.status !== 'sent' || !message.submittedAt) return null;
  const due = message.receiptDueAt;
  return (
    <Text
      size="xs"
      c="dimmed"
      data-testid="awaiting-receipt"
      title={due ? t('If no receipt arrives by the deadline, the outcome becomes unknown') : undefined}
      {...props}
    >
      {t('Waiting for receipt since')}{' '}
      <time dateTime={message.submittedAt} style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(message.submittedAt)}
      </time>
      {due && (
        <>
          {t(', deadline')}{' '}
          <time dateTime={due} style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(due)}
          </time>
        </>
      )}
    </Text>
  );
}
