import { useForm } from '@mantine/form';
import { translate } from '@/lib/i18n';
import { MAX_RECIPIENTS_SINGLE, MAX_SEGMENTS, analyseSmsText, type SendSingleInput } from '@wren/contracts';
import { validNumbers, type RecipientEntry } from './parse-recipients';
import { toIsoWithOffset, wallTimeToInstant } from './zoned-time';

export interface SingleSmsValues {
  recipients: RecipientEntry[];
  text: string;
  /** The picked sender; '' means the default. */
  senderId: string;
  schedule: boolean;
  /** Wall-clock `YYYY-MM-DD HH:mm:ss` in `timezone`. */
  scheduleAt: string | null;
  timezone: string;
}

/** A schedule must be at least this far ahead (the server wants more than 5 s). */
const MIN_LEAD_MS = 60_000;

export function validateSingleSms(values: SingleSmsValues, now = Date.now()): Record<string, string> {
  const errors: Record<string, string> = {};
  const valid = validNumbers(values.recipients).length;
  const invalid = values.recipients.length - valid;
  if (invalid > 0) {
    errors.recipients =
      invalid === 1
        ? translate('Fix or remove the invalid number (marked in red)')
        : translate('Fix or remove the {{count}} invalid numbers (marked in red)', { count: invalid });
  } else if (valid === 0) {
    errors.recipients = translate('Add at least one recipient');
  } else if (valid > MAX_RECIPIENTS_SINGLE) {
    errors.recipients = translate('At most {{max}} recipients per send; use Bulk SMS for more', {
      max: MAX_RECIPIENTS_SINGLE,
    });
  }
  if (!values.text.trim()) errors.text = translate('Write a message');
  else {
    const { segments } = analyseSmsText(values.text);
    if (segments > MAX_SEGMENTS)
      errors.text = translate('The message is too long: {{count}} segments (at most {{max}})', {
        count: segments,
        max: MAX_SEGMENTS,
      });
  }
  if (values.schedule) {
    const at = values.scheduleAt ? wallTimeToInstant(values.scheduleAt, values.timezone) : null;
    if (!at) errors.scheduleAt = translate('Choose when to send');
    else if (at.getTime() < now + MIN_LEAD_MS)
      errors.scheduleAt = translate('Choose a time at least a minute from now');
  }
  return errors;
}

/** The request body; the default sender is left for the server to pick. */
export function toSendInput(values: SingleSmsValues, defaultSender: string): SendSingleInput {
  const input: SendSingleInput = { recipients: validNumbers(values.recipients), text: values.text };
  if (values.senderId && values.senderId !== defaultSender) input.senderId = values.senderId;
  if (values.schedule && values.scheduleAt) {
    const at = wallTimeToInstant(values.scheduleAt, values.timezone);
    if (at) {
      input.scheduleAt = toIsoWithOffset(at, values.timezone);
      input.timezone = values.timezone;
    }
  }
  return input;
}

export function useSingleSmsForm(timezone: string) {
  return useForm<SingleSmsValues>({
    initialValues: { recipients: [], text: '', senderId: '', schedule: false, scheduleAt: null, timezone },
    validate: (values) => validateSingleSms(values),
  });
}
