import { Badge, Loader } from '@mantine/core';
import type { MessageStatus } from '@wren/contracts';
import { statusColor, statusLabel } from '../format';

const IN_FLIGHT: MessageStatus[] = ['queued', 'sending', 'sent'];

/** A message status as a coloured badge; in-flight statuses show a spinner. */
export function StatusBadge({ status }: { status: MessageStatus }) {
  return (
    <Badge
      color={statusColor(status)}
      variant={status === 'canceled' ? 'outline' : 'light'}
      leftSection={IN_FLIGHT.includes(status) ? <Loader size={10} color={statusColor(status)} /> : undefined}
      data-status={status}
    >
      {statusLabel(status)}
    </Badge>
  );
}
