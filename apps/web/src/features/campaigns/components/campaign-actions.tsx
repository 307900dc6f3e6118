import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { CampaignDto } from '@wren/contracts';
import { useCan } from '@/lib/account-role';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { useCampaignAction, type CampaignAction } from '../api/campaigns';

/**
 * Pause, resume and cancel (cancel asks first and says what is refunded): messages:send's, so a
 * role that only reads campaigns (analyst) sees none of them, wherever they are shown.
 */
export function CampaignActions({ c, size = 'xs' }: { c: CampaignDto; size?: 'xs' | 'sm' }) {
  const action = useCampaignAction();
  const canSend = useCan('messages:send');
  const [confirming, setConfirming] = useState(false);
  const run = async (a: CampaignAction) => {
    try {
      const next = await action.mutateAsync({ id: c.id, action: a });
      if (a === 'cancel') {
        toast.success(
          `Campaign canceled; ${formatMoney(next.refundedMinor, next.currency)} refunded for messages not sent`,
        );
      }
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setConfirming(false);
    }
  };
  const live = c.status === 'sending' || c.status === 'paused' || c.status === 'scheduled';
  if (!live || !canSend) return null;
  return (
    <Group gap="xs" wrap="nowrap">
      {c.status === 'sending' && (
        <Button
          size={size}
          variant="light"
          color="yellow"
          onClick={() => void run('pause')}
          loading={action.isPending}
        >
          Pause
        </Button>
      )}
      {c.status === 'paused' && (
        <Button size={size} variant="light" onClick={() => void run('resume')} loading={action.isPending}>
          Resume
        </Button>
      )}
      <Button size={size} variant="light" color="red" onClick={() => setConfirming(true)}>
        Cancel
      </Button>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Cancel this campaign?" centered>
        <Stack>
          <Text size="sm">
            “{c.name}” stops now. Every message not yet handed to the network is canceled and refunded to your
            balance. Messages already sent cannot be called back.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Keep sending
            </Button>
            <Button color="red" onClick={() => void run('cancel')} loading={action.isPending}>
              Cancel campaign
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
