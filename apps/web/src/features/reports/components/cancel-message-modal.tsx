import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
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
  const t = useT();
  const cancel = useCancelMessage();

  const confirm = async () => {
    if (!message) return;
    try {
      await cancel.mutateAsync(message.id);
      toast.success(
        t('The message to {{recipient}} was canceled and {{amount}} refunded.', {
          recipient: message.recipient,
          amount: formatMoney(message.priceMinor, message.currency),
        }),
      );
      onClose();
    } catch (error) {
      toast.error(messageOf(error));
      onClose();
    }
  };

  return (
    <Modal opened={message !== null} onClose={onClose} title={t('Cancel scheduled message?')} centered>
      {message && (
        <Stack>
          <Text size="sm">
            {t('The message to')} <b>{message.recipient}</b>
            {message.scheduledAt && (
              <>
                {' '}
                {t('scheduled for')} <b>{formatInZone(message.scheduledAt, timezone)}</b>
              </>
            )}{' '}
            {t('will not be sent. Its cost of {{amount}} is refunded to your balance.', {
              amount: formatMoney(message.priceMinor, message.currency),
            })}
          </Text>
          <Text size="sm" c="dimmed" lineClamp={3} style={{ whiteSpace: 'pre-wrap' }}>
            “{message.text}”
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={cancel.isPending} data-autofocus>
              {t('Keep it')}
            </Button>
            <Button color="red" onClick={() => void confirm()} loading={cancel.isPending}>
              {t('Cancel message')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
