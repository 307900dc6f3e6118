import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { CampaignDto } from '@wren/contracts';
import { useCan } from '@/lib/account-role';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { useCampaignAction, type CampaignAction } from '../api/campaigns';

/**
 * Pause, resume and cancel (cancel asks first and says what is refunded): messages:send's, so a
 * role that only reads campaigns (analyst) sees none of them, wherever they are shown.
 */
export function CampaignActions({ c, size = 'xs' }: { c: CampaignDto; size?: 'xs' | 'sm' }) {
  const t = useT();
  const action = useCampaignAction();
  const canSend = useCan('messages:send');
  const [confirming, setConfirming] = useState(false);
  const run = async (a: CampaignAction) => {
    try {
      const next = await action.mutateAsync({ id: c.id, action: a });
      if (a === 'cancel') {
        toast.success(
          t('Campaign canceled; {{amount}} refunded for messages not sent', {
            amount: formatMoney(next.refundedMinor, next.currency),
          }),
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
          {t('Pause')}
        </Button>
      )}
      {c.status === 'paused' && (
        <Button size={size} variant="light" onClick={() => void run('resume')} loading={action.isPending}>
          {t('Resume')}
        </Button>
      )}
      <Button size={size} variant="light" color="red" onClick={() => setConfirming(true)}>
        {t('Cancel')}
      </Button>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('Cancel this campaign?')}
        centered
      >
        <Stack>
          <Text size="sm">
            {t(
              '“{{name}}” stops now. Every message not yet handed to the network is canceled and refunded to your balance. Messages already sent cannot be called back.',
              { name: c.name },
            )}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('Keep sending')}
            </Button>
            <Button color="red" onClick={() => void run('cancel')} loading={action.isPending}>
              {t('Cancel campaign')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
