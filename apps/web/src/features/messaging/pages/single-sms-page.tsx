import '@mantine/dates/styles.css';
import { useMemo, useState } from 'react';
import { Alert, Button, Card, Grid, Group, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { analyseSmsText } from '@wren/contracts';
import { paths } from '@/config/paths';
import { usePlatformSender, useSenderIds } from '@/features/sender-ids';
import { applySubmitError } from '@/lib/form-errors';
import { formatMoney } from '@/lib/money';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useCurrentUser } from '@/lib/use-session';
import { useBalance } from '../api/get-balance';
import { overBalance, SendButton } from '../components/send-button';
import { usePricing } from '../api/get-pricing';
import { useSendSingle } from '../api/send-single';
import { ConfirmSendModal, type SendSummary } from '../components/confirm-send-modal';
import { MessageField } from '../components/message-field';
import { MessagePreview } from '../components/message-preview';
import { RecipientsInput } from '../components/recipients-input';
import { ScheduleFields } from '../components/schedule-fields';
import { SendSummaryCard } from '../components/send-summary-card';
import { SenderSelect } from '../components/sender-select';
import { estimateCost } from '../cost';
import { defaultCountryFor, validNumbers } from '../parse-recipients';
import { senderChoices } from '../sender-options';
import { segmentParts } from '../sms-parts';
import { toSendInput, useSingleSmsForm } from '../use-single-sms-form';
import { browserTimeZone, formatInZone, wallTimeToInstant } from '../zoned-time';

interface SentNotice {
  message: string;
  scheduled: boolean;
}

export default function SingleSmsPage() {
  const t = useT();
  const user = useCurrentUser();
  const defaultCountry = useMemo(() => defaultCountryFor(user?.phone), [user?.phone]);
  const form = useSingleSmsForm(user?.timezone || browserTimeZone());
  const pricing = usePricing();
  const balance = useBalance();
  const senderIds = useSenderIds();
  const send = useSendSingle();
  const [summary, setSummary] = useState<SendSummary | null>(null);
  const [sent, setSent] = useState<SentNotice | null>(null);

  const { values } = form;
  const platformSender = usePlatformSender();
  const choices = useMemo(
    () => senderChoices(senderIds.data, platformSender.data),
    [senderIds.data, platformSender.data],
  );
  const sender = values.senderId || choices.defaultValue;
  const info = useMemo(() => analyseSmsText(values.text), [values.text]);
  const parts = useMemo(() => segmentParts(values.text), [values.text]);
  const numbers = validNumbers(values.recipients);
  const cost = pricing.data ? estimateCost(numbers, info.segments, pricing.data) : null;

  const review = form.onSubmit((v) => {
    const at = v.schedule && v.scheduleAt ? wallTimeToInstant(v.scheduleAt, v.timezone) : null;
    setSent(null);
    setSummary({
      recipients: validNumbers(v.recipients),
      sender,
      segments: info.segments,
      encoding: info.encoding,
      cost,
      schedule: at ? { at, timezone: v.timezone } : null,
    });
  });

  const confirm = async () => {
    if (!summary) return;
    try {
      const result = await send.mutateAsync(toSendInput(values, choices.defaultValue));
      const n = result.messages.length;
      const message = summary.schedule
        ? t('Scheduled for {{time}}', { time: formatInZone(summary.schedule.at, summary.schedule.timezone) })
        : n === 1
          ? t('Message queued to {{count}} recipient', { count: n })
          : t('Message queued to {{count}} recipients', { count: n });
      // One confirmation: the banner above the form (with its link and the cost), no toast; the page
      // goes back to the top so the banner and the breadcrumb are in view.
      setSent({
        message: t('{{message}} · {{amount}} charged', {
          message,
          amount: formatMoney(result.totalPriceMinor, result.currency),
        }),
        scheduled: !!summary.schedule,
      });
      form.setValues({ recipients: [], text: '', schedule: false, scheduleAt: null });
      form.resetDirty();
      window.scrollTo({ top: 0 });
    } catch (error) {
      const message = applySubmitError(form, error);
      if (message) toast.error(message);
    } finally {
      setSummary(null);
    }
  };

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack>
          {sent && (
            <Alert
              color="teal"
              variant="light"
              role="status"
              data-testid="sent-notice"
              title={sent.message}
              withCloseButton
              onClose={() => setSent(null)}
            >
              <Group gap="sm" mt={4}>
                <Button
                  component={Link}
                  to={sent.scheduled ? paths.reports.scheduled.getHref() : paths.reports.smsLog.getHref()}
                  size="xs"
                  variant="light"
                  color="teal"
                >
                  {sent.scheduled ? t('View scheduled messages') : t('View in SMS log')}
                </Button>
              </Group>
            </Alert>
          )}
          <Card withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
            <form onSubmit={review} noValidate aria-label={t('Single SMS')}>
              <Stack gap="lg">
                <RecipientsInput
                  entries={values.recipients}
                  onChange={(entries) => form.setFieldValue('recipients', entries)}
                  defaultCountry={defaultCountry}
                  error={form.errors.recipients as string | undefined}
                />
                <SenderSelect
                  choices={choices}
                  value={sender}
                  onChange={(v) => form.setFieldValue('senderId', v)}
                  loading={senderIds.isLoading}
                  error={form.errors.senderId as string | undefined}
                />
                <MessageField
                  value={values.text}
                  onChange={(text) => form.setFieldValue('text', text)}
                  info={info}
                  cost={cost && numbers.length ? formatMoney(cost.totalMinor, cost.currency) : null}
                  error={form.errors.text as string | undefined}
                />
                <ScheduleFields
                  enabled={values.schedule}
                  onEnabledChange={(on) => form.setFieldValue('schedule', on)}
                  at={values.scheduleAt}
                  onAtChange={(at) => form.setFieldValue('scheduleAt', at)}
                  timezone={values.timezone}
                  onTimezoneChange={(tz) => form.setFieldValue('timezone', tz)}
                  error={form.errors.scheduleAt as string | undefined}
                />
                <SendButton
                  label={values.schedule ? t('Review and schedule') : t('Review and send')}
                  over={numbers.length ? overBalance(cost?.totalMinor, balance.data) : null}
                />
              </Stack>
            </form>
          </Card>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack>
          <SendSummaryCard
            balance={balance.data}
            balanceError={balance.isError}
            showBalance={balance.allowed}
            cost={cost}
            recipients={numbers.length}
            segments={info.segments}
          />
          <MessagePreview sender={sender} parts={parts} info={info} />
        </Stack>
      </Grid.Col>
      <ConfirmSendModal
        summary={summary}
        balance={balance.data}
        sending={send.isPending}
        onCancel={() => setSummary(null)}
        onConfirm={() => void confirm()}
      />
    </Grid>
  );
}
