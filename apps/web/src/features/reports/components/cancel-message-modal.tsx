import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { MessageDto } from '@wren/contracts';
import { messageOf } from '@/lib/http/http-error';
import { toast } from '@/lib/toast';
import { useCancelMessage } from '../api/cancel-message';
import { formatMoney } from '@/lib/money';
import { formatInZone } from '../format';

interface CancelMessageModalProps {
  message: MessageDto | null;
  /** The zone to show the scheduled time in. */
  timezone: string;
  onClose: () => void;
}

/** Asks before canceling a scheduled message; on success the price is refunded. */
export function CancelMessageModal({ message, timezone, onClose }: CancelMessageModalProps) {
  const cancel = useCancelMessage();

  const confirm = async () => {
    if (!message) return;
    try {
      await cancel.mutateAsync(message.id);
      toast.success(
        `The message to ${message.recipient} was canceled and ${formatMoney(message.priceMinor, message.currency)} refunded.`,
      );
      onClose();
    } catch (error) {
      toast.error(messageOf(error));
      onClose();
    }
  };

  return (
    <Modal opened={message !== null} onClose={onClose} title="Cancel scheduled message?" centered>
      {message && (
        <Stack>
          <Text size="sm">
            The message to <b>{message.recipient}</b>
            {message.scheduledAt && (
              <>
                {' '}
                scheduled for <b>{formatInZone(message.scheduledAt, timezone)}</b>
              </>
            )}{' '}
            will not be sent. Its cost of {formatMoney(message.priceMinor, message.currency)} is refunded to
            your balance.
          </Text>
          <Text size="sm" c="dimmed" lineClamp={3} style={{ whiteSpace: 'pre-wrap' }}>
            “{message.text}”
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={cancel.isPending} data-autofocus>
              Keep it
            </Button>
            <Button color="red" onClick={() => void confirm()} loading={cancel.isPending}>
              Cancel message
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
