import '@mantine/dates/styles.css';
import { useMemo, useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Divider,
  Grid,
  Group,
  Loader,
  Modal,
  MultiSelect,
  NumberInput,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  analyseSmsText,
  CAMPAIGN_MAX_TEXT,
  MAX_SEGMENTS,
  placeholdersOf,
  type CampaignEstimate,
  type CampaignSourceInput,
  type CampaignUploadDto,
  type CreateCampaignInput,
} from '@wren/contracts';
import { paths } from '@/config/paths';
import { useBalance } from '../api/get-balance';
import { MessageField } from './message-field';
import { ScheduleFields } from './schedule-fields';
import { SenderSelect } from './sender-select';
import { senderChoices } from '../sender-options';
import { browserTimeZone, formatInZone, toIsoWithOffset, wallTimeToInstant } from '../zoned-time';
import { usePlatformSender, useSenderIds } from '@/features/sender-ids';
import { HttpError } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { useCurrentUser } from '@/lib/use-session';
import {
  downloadIssues,
  estimateCampaign,
  RecipientsUpload,
  useCampaignGroups,
  useCreateCampaign,
} from '@/features/campaigns';

type Kind = 'bulk' | 'personalised';

function Row({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} ta="right">
        {value}
      </Text>
    </Group>
  );
}

/** The error of a failed estimate: field errors joined, or the message. */
function errorText(error: unknown): { field: Record<string, string>; message: string } {
  if (error instanceof HttpError && Object.keys(error.fieldErrors).length) {
    const field = Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.join(' ')]));
    return { field, message: Object.values(field).join(' ') };
  }
  return { field: {}, message: error instanceof Error ? error.message : String(error) };
}

/**
 * Bulk and personalised campaigns: recipients (groups, pasted numbers, a file), sender, text, a live
 * estimate from the server (nothing stored), a confirm step, then send now or at a time in a zone.
 */
export function CampaignComposer({ kind }: { kind: Kind }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const groups = useCampaignGroups();
  const balance = useBalance();
  const senderIds = useSenderIds();
  const create = useCreateCampaign();
  const platformSender = usePlatformSender();
  const choices = useMemo(
    () => senderChoices(senderIds.data, platformSender.data),
    [senderIds.data, platformSender.data],
  );
  const textRef = useRef<HTMLTextAreaElement>(null);

  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [numbers, setNumbers] = useState('');
  const [upload, setUpload] = useState<CampaignUploadDto | null>(null);
  const [phoneColumn, setPhoneColumn] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [senderId, setSenderId] = useState('');
  const [schedule, setSchedule] = useState(false);
  const [scheduleAt, setScheduleAt] = useState<string | null>(null);
  const [timezone, setTimezone] = useState(user?.timezone || browserTimeZone());
  const [rate, setRate] = useState<number | string>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);

  const sender = senderId || choices.defaultValue;
  const personalised = kind === 'personalised';
  const info = useMemo(() => analyseSmsText(text), [text]);
  const hasSource = groupIds.length > 0 || numbers.trim() !== '' || (upload !== null && phoneColumn !== null);

  // The estimate: for bulk the recipients only (the text's segments multiply the per-segment sum
  // here, as the user types); for personalised each row's own text, so the text is part of it.
  const source: CampaignSourceInput = {
    kind,
    groupIds,
    numbers,
    uploadId: upload?.uploadId,
    phoneColumn: phoneColumn ?? undefined,
    text: personalised ? text || ' ' : 'x',
  };
  const [debounced] = useDebouncedValue(source, 400);
  const estimate = useQuery({
    queryKey: ['campaign-estimate', debounced],
    queryFn: ({ signal }) => estimateCampaign(debounced, signal),
    enabled: hasSource && (!personalised || text.trim() !== ''),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 30_000,
  });
  const est: CampaignEstimate | undefined = estimate.isError ? undefined : estimate.data;
  const estimateError = estimate.isError ? errorText(estimate.error) : null;
  const segments = personalised ? (est?.segments ?? 0) : info.segments;
  const costMinor = est ? (personalised ? est.costMinor : est.perSegmentMinor * info.segments) : null;
  const currency = est?.currency ?? balance.data?.currency ?? 'USD';
  const balanceAfter = balance.data && costMinor !== null ? balance.data.balanceMinor - costMinor : null;
  const scheduledInstant = schedule && scheduleAt ? wallTimeToInstant(scheduleAt, timezone) : null;

  const placeholders = placeholdersOf(text);
  const unknownPlaceholders = upload ? placeholders.filter((p) => !upload.columns.includes(p)) : [];

  const insert = (column: string) => {
    const el = textRef.current;
    const token = `{{${column}}}`;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + token + text.slice(end);
    setText(next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const review = (event: React.FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (!hasSource) {
      next.recipients = personalised
        ? 'Upload a file with the recipients and pick its phone column'
        : 'Choose a group, paste numbers or upload a file';
    }
    if (!text.trim()) next.text = 'Write a message';
    else if (text.length > CAMPAIGN_MAX_TEXT)
      next.text = `The message is too long (at most ${CAMPAIGN_MAX_TEXT} characters)`;
    else if (!personalised && info.segments > MAX_SEGMENTS)
      next.text = `The message is too long: ${info.segments} parts (at most ${MAX_SEGMENTS})`;
    if (unknownPlaceholders.length)
      next.text = `No column matches ${unknownPlaceholders.map((p) => `{{${p}}}`).join(', ')}`;
    if (schedule && !scheduledInstant) next.scheduleAt = 'Pick a date and time';
    else if (scheduledInstant && scheduledInstant.getTime() <= Date.now())
      next.scheduleAt = 'Choose a time in the future';
    if (estimateError) Object.assign(next, estimateError.field);
    setErrors(next);
    if (Object.keys(next).length || estimateError) {
      if (estimateError && !Object.keys(estimateError.field).length) toast.error(estimateError.message);
      return;
    }
    if (!est) {
      toast.info('Working out the recipients and the cost; try again in a moment');
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
      timezone: scheduledInstant ? timezone : undefined,
      ratePerMinute: typeof rate === 'number' && rate > 0 ? rate : undefined,
    };
    try {
      const result = await create.mutateAsync(input);
      toast.success(
        scheduledInstant
          ? `Campaign scheduled for ${formatInZone(scheduledInstant, timezone)} · ${formatMoney(result.campaign.costMinor, result.campaign.currency)} charged`
          : `Campaign accepted: ${result.campaign.recipients.toLocaleString()} recipients · ${formatMoney(result.campaign.costMinor, result.campaign.currency)} charged`,
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

  const groupOptions = (groups.data ?? []).map((g) => ({
    value: g.id,
    label: `${g.name} (${g.contactCount.toLocaleString()})`,
  }));

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Card withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
          <form onSubmit={review} noValidate aria-label={personalised ? 'Personalised SMS' : 'Bulk SMS'}>
            <Stack gap="lg">
              <Title order={2} size="h4">
                Recipients
              </Title>
              {errors.recipients && (
                <Alert color="red" variant="light" role="alert">
                  {errors.recipients}
                </Alert>
              )}
              {!personalised && (
                <>
                  <MultiSelect
                    label="Contact groups"
                    description="Everyone in the chosen groups; a number in several groups gets one message."
                    placeholder={groupOptions.length ? 'Choose groups' : 'No contact groups yet'}
                    data={groupOptions}
                    value={groupIds}
                    onChange={setGroupIds}
                    searchable
                    clearable
                    nothingFoundMessage="No group by that name"
                    rightSection={groups.isPending ? <Loader size="xs" /> : undefined}
                    error={errors.groupIds}
                  />
                  <Textarea
                    label="Paste numbers"
                    description="One per line, or separated by commas. Numbers without a country code are read as your country's."
                    placeholder={'+14155550123\n+447911123456'}
                    autosize
                    minRows={3}
                    maxRows={8}
                    value={numbers}
                    onChange={(e) => setNumbers(e.currentTarget.value)}
                    error={errors.numbers}
                  />
                </>
              )}
              <RecipientsUpload
                label={personalised ? 'Recipients file' : 'Upload a file'}
                description={
                  personalised
                    ? 'CSV or XLSX with a header row: a phone column and the columns your message uses.'
                    : 'CSV, TXT or XLSX with a column of phone numbers, up to 20 MB.'
                }
                upload={upload}
                onUpload={setUpload}
                phoneColumn={phoneColumn}
                onPhoneColumn={setPhoneColumn}
                error={errors.uploadId ?? errors.phoneColumn}
              />

              <Divider />
              <Title order={2} size="h4">
                Message
              </Title>
              <TextInput
                label="Campaign name"
                description="Optional; shown in the campaign report."
                placeholder="Spring sale"
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
              />
              <SenderSelect
                choices={choices}
                value={sender}
                onChange={setSenderId}
                loading={senderIds.isPending}
                error={errors.senderId}
              />
              {personalised ? (
                <Stack gap={6}>
                  <Textarea
                    ref={textRef}
                    label="Message"
                    description="Use {{column}} for a value from each row."
                    placeholder="Hi {{name}}, your order {{order}} is ready."
                    autosize
                    minRows={4}
                    value={text}
                    onChange={(e) => setText(e.currentTarget.value)}
                    error={
                      errors.text ??
                      (unknownPlaceholders.length
                        ? `No column matches ${unknownPlaceholders.map((p) => `{{${p}}}`).join(', ')}`
                        : undefined)
                    }
                    required
                  />
                  {upload && (
                    <Group gap={6} aria-label="Insert a column">
                      <Text size="xs" c="dimmed">
                        Insert:
                      </Text>
                      {upload.columns.map((c) => (
                        <Button key={c} size="compact-xs" variant="light" onClick={() => insert(c)}>
                          {`{{${c}}}`}
                        </Button>
                      ))}
                    </Group>
                  )}
                  <Text size="xs" c="dimmed">
                    {text.length} / {CAMPAIGN_MAX_TEXT} characters in the template; each row is counted as it
                    will be sent (see the preview).
                  </Text>
                </Stack>
              ) : (
                <MessageField
                  value={text}
                  onChange={setText}
                  info={info}
                  cost={costMinor !== null && text ? formatMoney(costMinor, currency) : null}
                  error={errors.text}
                />
              )}

              <Divider />
              <ScheduleFields
                enabled={schedule}
                onEnabledChange={setSchedule}
                at={scheduleAt}
                onAtChange={setScheduleAt}
                timezone={timezone}
                onTimezoneChange={setTimezone}
                error={errors.scheduleAt}
              />
              <NumberInput
                label="Send rate"
                description="Optional: at most this many messages a minute. Leave empty to send as fast as the network allows."
                placeholder="As fast as possible"
                suffix=" per minute"
                min={1}
                max={1_000_000}
                allowDecimal={false}
                value={rate}
                onChange={setRate}
                maw={320}
              />
              <Group justify="flex-end">
                <Button type="submit" size="md">
                  {schedule ? 'Review and schedule' : 'Review and send'}
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
        {personalised && (est?.preview.length || estimate.isFetching) ? (
          <Card withBorder radius="md" mt="lg" p="lg">
            <Title order={2} size="h5" mb="sm">
              Preview: the first rows as they will be sent
            </Title>
            <Table.ScrollContainer minWidth={640}>
              <Table striped data-testid="personalised-preview">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Row</Table.Th>
                    <Table.Th>Recipient</Table.Th>
                    <Table.Th>Message</Table.Th>
                    <Table.Th>Segments</Table.Th>
                    <Table.Th>Cost</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {(est?.preview ?? []).map((p) => (
                    <Table.Tr
                      key={p.row}
                      data-flagged={p.problem ? 'true' : undefined}
                      style={
                        p.problem ? { boxShadow: 'inset 4px 0 0 var(--mantine-color-red-filled)' } : undefined
                      }
                    >
                      <Table.Td>{p.row}</Table.Td>
                      <Table.Td>{p.recipient ?? '—'}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                        {p.problem ? (
                          <Text size="sm" fw={600}>
                            Not sent: {p.problem}
                          </Text>
                        ) : (
                          p.text
                        )}
                      </Table.Td>
                      <Table.Td>
                        {p.problem ? '—' : p.segments}
                        {!p.problem && p.encoding === 'UCS-2' && (
                          <Badge ml={4} size="xs" color="orange" variant="light">
                            Unicode
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>{p.problem ? '—' : formatMoney(p.costMinor, currency)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        ) : null}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Card withBorder radius="md" padding="lg" data-testid="campaign-estimate">
          <Stack gap="xs">
            <Text size="xs" tt="uppercase" fw={700} c="dimmed">
              Estimate
            </Text>
            {!hasSource ? (
              <Text size="sm" c="dimmed">
                {personalised
                  ? 'Upload a file and write the message to see the recipients and the cost.'
                  : 'Choose recipients to see how many will get the message and what it costs.'}
              </Text>
            ) : estimateError ? (
              <Alert color="red" variant="light" role="alert" p="xs">
                {estimateError.message}
              </Alert>
            ) : !est ? (
              <Stack gap={6}>
                <Skeleton h={14} />
                <Skeleton h={14} />
                <Skeleton h={14} />
              </Stack>
            ) : (
              <>
                <Row
                  label="Recipients"
                  value={
                    <>
                      {est.recipients.toLocaleString()}
                      {estimate.isFetching && <Loader size={10} ml={6} />}
                    </>
                  }
                  testId="estimate-recipients"
                />
                {est.duplicates > 0 && (
                  <Row label="Duplicates removed" value={est.duplicates.toLocaleString()} />
                )}
                {est.invalid > 0 && (
                  <Row
                    label="Invalid (not sent)"
                    value={est.invalid.toLocaleString()}
                    testId="estimate-invalid"
                  />
                )}
                {est.suppressed > 0 && (
                  <Row label="Opted out (not sent)" value={est.suppressed.toLocaleString()} />
                )}
                <Row label={personalised ? 'Most segments in a row' : 'Segments'} value={segments} />
                <Row
                  label="Encoding"
                  value={
                    (personalised ? est.encoding : info.encoding) === 'GSM-7' ? 'GSM-7' : 'Unicode (UCS-2)'
                  }
                />
                <Divider />
                <Row
                  label="Total cost"
                  value={costMinor !== null ? formatMoney(costMinor, currency) : '—'}
                  testId="estimate-cost"
                />
                <Row
                  label="Balance"
                  value={balance.data ? formatMoney(balance.data.balanceMinor, currency) : '—'}
                />
                <Row
                  label="Balance after"
                  value={
                    balanceAfter !== null ? (
                      <Text span c={balanceAfter < 0 ? 'red' : undefined} fw={600} size="sm">
                        {formatMoney(balanceAfter, currency)}
                      </Text>
                    ) : (
                      '—'
                    )
                  }
                  testId="estimate-balance-after"
                />
                {balanceAfter !== null && balanceAfter < 0 && (
                  <Alert color="red" variant="light" p="xs">
                    Your balance does not cover this campaign.
                  </Alert>
                )}
                {est.issues.length > 0 && (
                  <>
                    <Divider />
                    <Text size="sm" fw={600}>
                      Not sent
                    </Text>
                    <Stack gap={2} data-testid="estimate-issues">
                      {est.issues.slice(0, 5).map((i, n) => (
                        <Text key={n} size="xs">
                          {i.row !== null ? `Row ${i.row}: ` : ''}
                          <b>{i.value || '(empty)'}</b> · {i.reason}
                        </Text>
                      ))}
                    </Stack>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      onClick={() =>
                        void downloadIssues(source).catch((e: unknown) =>
                          toast.error(e instanceof Error ? e.message : String(e)),
                        )
                      }
                    >
                      Download the full list (CSV)
                    </Anchor>
                  </>
                )}
              </>
            )}
          </Stack>
        </Card>
      </Grid.Col>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={schedule ? 'Review and schedule' : 'Review and send'}
        centered
        size="lg"
      >
        {est && (
          <Stack>
            <Table variant="vertical" layout="fixed" withTableBorder data-testid="campaign-confirm">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={160}>Recipients</Table.Th>
                  <Table.Td>{est.recipients.toLocaleString()}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Sender ID</Table.Th>
                  <Table.Td>{sender}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Message</Table.Th>
                  <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {text}
                    {personalised && est.preview.find((p) => !p.problem) && (
                      <Text size="xs" c="dimmed" mt={4}>
                        First row: {est.preview.find((p) => !p.problem)?.text}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Segments</Table.Th>
                  <Table.Td>
                    {segments} ·{' '}
                    {(personalised ? est.encoding : info.encoding) === 'GSM-7' ? 'GSM-7' : 'Unicode'}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Total cost</Table.Th>
                  <Table.Td fw={700}>{costMinor !== null ? formatMoney(costMinor, currency) : '—'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Balance after</Table.Th>
                  <Table.Td>{balanceAfter !== null ? formatMoney(balanceAfter, currency) : '—'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Td>
                    {scheduledInstant ? (
                      <>
                        {formatInZone(scheduledInstant, timezone)}
                        {timezone !== (user?.timezone || browserTimeZone()) && (
                          <Text size="xs" c="dimmed">
                            {formatInZone(scheduledInstant, user?.timezone || browserTimeZone())} in your time
                            zone
                          </Text>
                        )}
                      </>
                    ) : (
                      'Now'
                    )}
                  </Table.Td>
                </Table.Tr>
                {typeof rate === 'number' && rate > 0 && (
                  <Table.Tr>
                    <Table.Th>Send rate</Table.Th>
                    <Table.Td>{rate.toLocaleString()} per minute</Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
            {balanceAfter !== null && balanceAfter < 0 && (
              <Alert color="red" variant="light">
                Your balance does not cover this campaign; top up first.
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                Back
              </Button>
              <Button onClick={() => void confirm()} loading={create.isPending}>
                {schedule ? 'Schedule campaign' : `Send to ${est.recipients.toLocaleString()} recipients`}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Grid>
  );
}
