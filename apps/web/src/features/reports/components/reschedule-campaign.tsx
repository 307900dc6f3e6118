import { useState } from 'react';
import { useT } from '@/lib/i18n';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import type { CampaignDto } from '@wren/contracts';
import { TimezoneSelect } from '@/components/timezone-select';
import { useReschedule } from '@/features/campaigns';
import { useCan } from '@/lib/account-role';
import { dayjs } from '@/lib/dayjs';
import { toast } from '@/lib/toast';

/**
 * A scheduled campaign's Reschedule button and its dialog: another time, in a zone of the user's
 * choice (the user's own at first); each opening suggests the next whole hour there.
 */
export function RescheduleCampaign({ c, zone }: { c: CampaignDto; zone: string }) {
  const t = useT();
  const reschedule = useReschedule();
  // messages:send's, as pause, resume and cancel (CampaignActions).
  const canSend = useCan('messages:send');
  const [rescheduling, setRescheduling] = useState(false);
  const [at, setAt] = useState<string | null>(null);
  const [tz, setTz] = useState(zone);

  const doReschedule = async () => {
    if (!at) return;
    try {
      const scheduleAt = dayjs.tz(at, tz).format('YYYY-MM-DDTHH:mm:ssZ');
      await reschedule.mutateAsync({ id: c.id, scheduleAt, timezone: tz });
      toast.success(t('Campaign rescheduled'));
      setRescheduling(false);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <>
      {c.status === 'scheduled' && canSend && (
        <Button
          size="sm"
          variant="light"
          onClick={() => {
            setAt(dayjs().tz(tz).add(1, 'hour').startOf('hour').format('YYYY-MM-DD HH:mm:ss'));
            setRescheduling(true);
          }}
        >
          {t('Reschedule')}
        </Button>
      )}
      <Modal
        opened={rescheduling}
        onClose={() => setRescheduling(false)}
        title={t('Reschedule campaign')}
        centered
      >
        <Stack>
          <DateTimePicker
            label={t('Send at')}
            value={at}
            onChange={setAt}
            valueFormat="D MMM YYYY, HH:mm"
            timePickerProps={{ format: '24h' }}
            popoverProps={{ withinPortal: true }}
          />
          <TimezoneSelect label={t('Time zone')} value={tz} onChange={(v) => v && setTz(v)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRescheduling(false)}>
              {t('Back')}
            </Button>
            <Button onClick={() => void doReschedule()} loading={reschedule.isPending} disabled={!at}>
              {t('Reschedule')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
