import { useMemo, useState } from 'react';
import { translate } from '@/lib/i18n';
import { useNavigate } from 'react-router';
import {
  analyseSmsText,
  linksIn,
  CAMPAIGN_MAX_TEXT,
  MAX_SEGMENTS,
  placeholdersOf,
  sendWindowSchema,
  withSampleLinks,
  type CampaignEstimate,
  type CampaignSourceInput,
  type CampaignUploadDto,
  type CreateCampaignInput,
} from '@wren/contracts';
import { paths } from '@/config/paths';
import { usePlatformSender, useSenderIds } from '@/features/sender-ids';
import { useCreateCampaign, useSendWindowChoice } from '@/features/campaigns';
import { HttpError } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { useCurrentUser } from '@/lib/use-session';
import { useBalance } from './api/get-balance';
import { useCampaignEstimate } from './api/use-campaign-estimate';
import { senderChoices } from './sender-options';
import { useDeliveryShaping } from './components/delivery-shaping-fields';
import { browserTimeZone, formatInZone, toIsoWithOffset, wallTimeToInstant } from './zoned-time';
import { formatNumber } from '@/lib/format';

export type CampaignKind = 'bulk' | 'personalised';
/** Where a personalised campaign's recipients and values come from (issue 47 item 2). */
export type RecipientSource = 'file' | 'groups';

/** The error of a failed estimate or send: field errors joined, or the message. */
function errorText(error: unknown): { field: Record<string, string>; message: string } {
  if (error instanceof HttpError && Object.keys(error.fieldErrors).length) {
    const field = Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.join(' ')]));
    return { field, message: Object.values(field).join(' ') };
  }
  return { field: {}, message: error instanceof Error ? error.message : String(error) };
}

/** "No column matches {{a}}, {{b}}" for placeholders no column of the upload has. */
export const unknownColumnsText = (placeholders: string[]) =>
  translate('No column matches {{placeholders}}', {
    placeholders: placeholders.map((p) => `{{${p}}}`).join(', '),
  });

/**
 * Whether a source is worth estimating: some recipients, and for personalised a text. Judged on the
 * debounced source the request sends, not on the form as typed (issue 47 defect 7: for 400 ms after
 * the first group or letter the request went with the empty source before it, and got a 422/400).
 */
export function estimateReady(s: CampaignSourceInput): boolean {
  const recipients =
    (s.groupIds?.length ?? 0) > 0 ||
    (s.numbers ?? '').trim() !== '' ||
    (s.uploadId !== undefined && s.phoneColumn !== undefined);
  return recipients && (s.kind !== 'personalised' || (s.text ?? '').trim() !== '');
}

/**
 * A campaign composer's state: what the user chose, the live estimate and what it implies (cost,
 * balance after, the scheduled instant), the checks before the confirm step, and the send.
 */
export function useCampaignComposer(kind: CampaignKind) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const balance = useBalance();
  const senderIds = useSenderIds();
  const create = useCreateCampaign();
  const platformSender = usePlatformSender();
  const choices = useMemo(
    () => senderChoices(senderIds.data, platformSender.data),
    [senderIds.data, platformSender.data],
  );

  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [recipientSource, setRecipientSource] = useState<RecipientSource>('file');
  const [numbers, setNumbers] = useState('');
  const [upload, setUpload] = useState<CampaignUploadDto | null>(null);
  const [phoneColumn, setPhoneColumn] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [senderId, setSenderId] = useState('');
  const [schedule, setSchedule] = useState(false);
  const [scheduleAt, setScheduleAt] = useState<string | null>(null);
  const userZone = user?.timezone || browserTimeZone();
  const [timezone, setTimezone] = useState(userZone);
  const [rate, setRate] = useState<number | string>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const [trackLinksChosen, setTrackLinks] = useState(false);
  // Send window (issue 41): the account's default, the campaign's own, or any hour.
  const sendWindow = useSendWindowChoice();
  // Delivery shaping (issue 41 item 3): batches and a pause, rates per network prefix.
  const shaping = useDeliveryShaping();

  const sender = senderId || choices.defaultValue;
  const personalised = kind === 'personalised';
  const hasLinks = useMemo(() => linksIn(text).length > 0, [text]);
  // Tracked links count at the short links' length, which the server knows (its link domain): the
  // estimate then takes the bulk text too, and its segments and cost are the ones shown.
  const trackLinks = trackLinksChosen && (hasLinks || personalised);
  const info = useMemo(() => analyseSmsText(text), [text]);
  const placeholders = useMemo(() => placeholdersOf(text), [text]);
  // Personalised takes a file or contact groups, not both; bulk takes all three.
  const fromGroups = !personalised || recipientSource === 'groups';
  const fromFile = !personalised || recipientSource === 'file';
  const chosenGroups = fromGroups ? groupIds : [];
  const chosenUpload = fromFile ? upload : null;
  const hasFile = chosenUpload !== null && phoneColumn !== null;
  const hasSource = chosenGroups.length > 0 || (!personalised && numbers.trim() !== '') || hasFile;
  // Each recipient's text is its own: a personalised campaign, or contacts filling {{name}} and
  // their custom fields into a bulk text. The server counts, prices and previews each.
  const filled = personalised || placeholders.length > 0;

  // The estimate: for bulk the recipients only (the text's segments multiply the per-segment sum
  // here, as the user types); for personalised each row's own text, so the text is part of it.
  const source: CampaignSourceInput = {
    kind,
    groupIds: chosenGroups,
    numbers: personalised ? '' : numbers,
    uploadId: chosenUpload?.uploadId,
    phoneColumn: chosenUpload ? (phoneColumn ?? undefined) : undefined,
    text: personalised ? text || ' ' : trackLinks || filled ? text : 'x',
    trackLinks,
    sendWindow: sendWindow.value,
    // The estimate counts the window from the schedule; numbers of no known zone use this one.
    scheduleAt:
      (schedule && scheduleAt && wallTimeToInstant(scheduleAt, timezone)?.toISOString()) || undefined,
    timezone: sendWindow.value !== null ? timezone : undefined,
  };
  const estimate = useCampaignEstimate(source, estimateReady);
  const est: CampaignEstimate | undefined = estimate.isError ? undefined : estimate.data;
  const estimateError = estimate.isError ? errorText(estimate.error) : null;
  const countedByServer = filled || trackLinks;
  // The message box counts the text as sent: with tracked links, each URL at its short link's length.
  const sentText = trackLinks && !filled && est?.linkBase ? withSampleLinks(text, est.linkBase) : text;
  const shownInfo = useMemo(
    () => (sentText === text ? info : analyseSmsText(sentText)),
    [sentText, text, info],
  );
  const segments = countedByServer ? (est?.segments ?? 0) : info.segments;
  const costMinor = est ? (countedByServer ? est.costMinor : est.perSegmentMinor * info.segments) : null;
  const currency = est?.currency ?? balance.data?.currency ?? 'USD';
  const balanceAfter = balance.data && costMinor !== null ? balance.data.balanceMinor - costMinor : null;
  const scheduledInstant = schedule && scheduleAt ? wallTimeToInstant(scheduleAt, timezone) : null;
  const ratePerMinute = typeof rate === 'number' && rate > 0 ? rate : undefined;

  const unknownPlaceholders = chosenUpload
    ? placeholders.filter((p) => !chosenUpload.columns.includes(p))
    : [];

  const review = (event: React.FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (!hasSource) {
      next.recipients = !personalised
        ? translate('Choose a group, paste numbers or upload a file')
        : recipientSource === 'groups'
          ? translate('Choose one or more contact groups')
          : translate('Upload a file with the recipients and pick its phone column');
    }
    if (!text.trim()) next.text = translate('Write a message');
    else if (text.length > CAMPAIGN_MAX_TEXT)
      next.text = translate('The message is too long (at most {{max}} characters)', {
        max: CAMPAIGN_MAX_TEXT,
      });
    else if (!filled && info.segments > MAX_SEGMENTS)
      next.text = translate('The message is too long: {{count}} parts (at most {{max}})', {
        count: info.segments,
        max: MAX_SEGMENTS,
      });
    if (unknownPlaceholders.length) next.text = unknownColumnsText(unknownPlaceholders);
    if (schedule && !scheduledInstant) next.scheduleAt = translate('Pick a date and time');
    else if (scheduledInstant && scheduledInstant.getTime() <= Date.now())
      next.scheduleAt = translate('Choose a time in the future');
    if (sendWindow.value) {
      const w = sendWindowSchema.safeParse(sendWindow.value);
      if (!w.success) next.sendWindow = w.error.issues.map((i) => i.message).join(' ');
    }
    Object.assign(next, shaping.validate());
    if (estimateError) Object.assign(next, estimateError.field);
    setErrors(next);
    if (Object.keys(next).length || estimateError) {
      if (estimateError && !Object.keys(estimateError.field).length) toast.error(estimateError.message);
      return;
    }
    if (!est) {
      toast.info(translate('Working out the recipients and the cost; try again in a moment'));
      return;
    }
    setConfirming(true);
  };

  const confirm = async () => {
    const input: CreateCampaignInput = {
      ...source,
      text,
      name: name.trim() || undefined,
      senderId: sender || undefined,
      scheduleAt: scheduledInstant ? toIsoWithOffset(scheduledInstant, timezone) : undefined,
      timezone: scheduledInstant || sendWindow.value !== null ? timezone : undefined,
      ratePerMinute,
      ...shaping.value,
    };
    try {
      const result = await create.mutateAsync(input);
      toast.success(
        scheduledInstant
          ? translate('Campaign scheduled for {{time}} · {{amount}} charged', {
              time: formatInZone(scheduledInstant, timezone),
              amount: formatMoney(result.campaign.costMinor, result.campaign.currency),
            })
          : translate('Campaign accepted: {{count}} recipients · {{amount}} charged', {
              count: formatNumber(result.campaign.recipients),
              amount: formatMoney(result.campaign.costMinor, result.campaign.currency),
            }),
      );
      void navigate(paths.reports.campaignDetail.getHref(result.campaign.id));
    } catch (error) {
      const { field, message } = errorText(error);
      setErrors(field);
      toast.error(message);
    } finally {
      setConfirming(false);
    }
  };

  return {
    personalised,
    filled,
    // recipients
    recipientSource,
    setRecipientSource,
    groupIds,
    chosenGroups,
    setGroupIds,
    numbers,
    setNumbers,
    upload,
    setUpload,
    phoneColumn,
    setPhoneColumn,
    hasSource,
    source,
    // message
    name,
    setName,
    choices,
    sender,
    setSenderId,
    sendersLoading: senderIds.isLoading,
    text,
    setText,
    info: shownInfo,
    sentText,
    unknownPlaceholders,
    hasLinks,
    trackLinks: trackLinksChosen,
    setTrackLinks,
    // schedule
    schedule,
    setSchedule,
    scheduleAt,
    setScheduleAt,
    timezone,
    setTimezone,
    userZone,
    scheduledInstant,
    rate,
    setRate,
    ratePerMinute,
    sendWindow,
    shaping,
    // estimate
    estimate,
    est,
    estimateError,
    segments,
    costMinor,
    currency,
    balance,
    balanceAfter,
    // steps
    errors,
    review,
    confirming,
    setConfirming,
    confirm,
    sending: create.isPending,
  };
}

export type CampaignComposerState = ReturnType<typeof useCampaignComposer>;
