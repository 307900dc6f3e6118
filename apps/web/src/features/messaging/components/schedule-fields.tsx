import { SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { DateTimePicker } from '@mantine/dates';
import { IconClock } from '@/components/icons';
import { TimezoneSelect } from '@/components/timezone-select';
import { formatInZone, defaultScheduleTime, nowInZone, wallTimeToInstant } from '../zoned-time';

interface ScheduleFieldsProps {
  enabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
  /** Wall-clock `YYYY-MM-DD HH:mm:ss` in `timezone`, or null. */
  at: string | null;
  onAtChange: (at: string | null) => void;
  timezone: string;
  onTimezoneChange: (timezone: string) => void;
  error?: string;
}

/** "Schedule for later": a date and time picked in a chosen time zone. */
export function ScheduleFields(props: ScheduleFieldsProps) {
  const t = useT();
  const { enabled, at, timezone } = props;
  const instant = at ? wallTimeToInstant(at, timezone) : null;
  const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <Stack gap="sm">
      <Switch
        label={t('Schedule for later')}
        description={t('Pick a date and time instead of sending now.')}
        checked={enabled}
        onChange={(event) => {
          const on = event.currentTarget.checked;
          props.onEnabledChange(on);
          // Start an hour or more ahead, on a round quarter hour in the chosen zone, not midnight.
          if (on && !at) props.onAtChange(defaultScheduleTime(timezone));
        }}
      />
      {enabled && (
        <div>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DateTimePicker
              label={t('Send at')}
              placeholder={t('Pick a date and time')}
              required
              value={at}
              onChange={props.onAtChange}
              minDate={nowInZone(timezone).slice(0, 10)}
              valueFormat="D MMM YYYY, HH:mm"
              // The time is typed or stepped in its own field: no list over the calendar.
              timePickerProps={{ format: '24h' }}
              leftSection={<IconClock size={18} />}
              clearable
              error={props.error}
              popoverProps={{ withinPortal: true }}
            />
            <TimezoneSelect
              label={t('Time zone')}
              required
              value={timezone}
              onChange={(value) => value && props.onTimezoneChange(value)}
            />
          </SimpleGrid>
          {instant && timezone !== local && (
            <Text size="xs" c="dimmed" mt={6}>
              {t('That is {{time}} on this device.', { time: formatInZone(instant, local) })}
            </Text>
          )}
        </div>
      )}
    </Stack>
  );
}
