import { NumberInput } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { CampaignSendWindowFields } from '@/features/campaigns';
import type { CampaignComposerState } from '../use-campaign-composer';
import { DeliveryShapingFields } from './delivery-shaping-fields';
import { ScheduleFields } from './schedule-fields';

/** When it is sent: now or at a time in a zone, at most how many messages a minute, in batches, per network. */
export function CampaignScheduleStep({ composer: c }: { composer: CampaignComposerState }) {
  const t = useT();
  return (
    <>
      <ScheduleFields
        enabled={c.schedule}
        onEnabledChange={c.setSchedule}
        at={c.scheduleAt}
        onAtChange={c.setScheduleAt}
        timezone={c.timezone}
        onTimezoneChange={c.setTimezone}
        error={c.errors.scheduleAt}
      />
      <NumberInput
        label={t('Send rate')}
        description={t(
          'Optional: at most this many messages a minute. Leave empty to send as fast as the network allows.',
        )}
        placeholder={t('As fast as possible')}
        suffix={t(' per minute')}
        min={1}
        max={1_000_000}
        allowDecimal={false}
        value={c.rate}
        onChange={c.setRate}
        maw={320}
      />
      <DeliveryShapingFields shaping={c.shaping} errors={c.errors} />
      <CampaignSendWindowFields
        mode={c.sendWindow.mode}
        onModeChange={c.sendWindow.setMode}
        window={c.sendWindow.window}
        onWindowChange={c.sendWindow.setWindow}
        accountDefault={c.sendWindow.accountDefault}
        errors={{ end: c.errors.sendWindow }}
      />
    </>
  );
}
