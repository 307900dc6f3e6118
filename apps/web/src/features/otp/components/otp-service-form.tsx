import { useMemo, useRef, useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Group,
  Input,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import {
  analyseSmsText,
  createOtpServiceSchema,
  MAX_SEGMENTS,
  OTP_DEFAULT_TEMPLATE,
  OTP_PLACEHOLDERS,
  renderOtpText,
  sampleOtpCode,
  SENDER_ID_API,
  type OtpCodeType,
  type OtpServiceDto,
  type SenderIdList,
} from '@wren/contracts';
import { getCountries } from 'libphonenumber-js';
import { useNavigate } from 'react-router';
import { FormAlert } from '@/components/form-alert';
import { paths } from '@/config/paths';
import { applySubmitError } from '@/lib/form-errors';
import { formatNumber } from '@/lib/format';
import { http } from '@/lib/http/client';
import { currentLocale, useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { useSaveOtpService } from '../api/otp-services';
import { ToneBadge } from './tone-badge';

export interface OtpFormValues {
  name: string;
  senderId: string;
  template: string;
  codeLength: number;
  codeType: OtpCodeType;
  ttlMinutes: number;
  maxAttempts: number;
  sendLimit: number;
  sendWindowMinutes: number;
  resendCooldownSeconds: number;
  allowedCountries: string[];
  velocityMaxSends: number;
  velocityWindowMinutes: number;
  velocityRangeDigits: number;
}

const DEFAULTS: OtpFormValues = {
  name: '',
  senderId: '',
  template: OTP_DEFAULT_TEMPLATE,
  codeLength: 6,
  codeType: 'numeric',
  ttlMinutes: 10,
  maxAttempts: 5,
  sendLimit: 5,
  sendWindowMinutes: 10,
  resendCooldownSeconds: 30,
  allowedCountries: [],
  velocityMaxSends: 20,
  velocityWindowMinutes: 10,
  velocityRangeDigits: 3,
};

/** Every country, named in the app's language: "Germany (DE)", "Allemagne (DE)". */
function countryOptions(locale: string) {
  const regionNames = new Intl.DisplayNames([locale], { type: 'region' });
  return getCountries()
    .map((cc) => ({ value: cc, label: `${regionNames.of(cc) ?? cc} (${cc})` }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
}

function useApprovedSenders() {
  return useQuery({
    queryKey: ['sender-ids', 'list', 'otp-form'],
    queryFn: async () => (await http.get<SenderIdList>(SENDER_ID_API.list)).data.items,
    select: (items) => items.filter((s) => s.status === 'approved').map((s) => s.value),
  });
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h4" mb={4}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {description}
      </Text>
      {children}
    </Card>
  );
}

/** Create and edit form of an OTP service, with a live preview of the SMS and its segment count. */
/** What the preview shows for {{service}} while the name is empty (English; shown through `t`). */
export const OTP_PREVIEW_UNNAMED = '[service name]';

export function OtpServiceForm({ service }: { service?: OtpServiceDto }) {
  const t = useT();
  const locale = currentLocale();
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const navigate = useNavigate();
  const save = useSaveOtpService();
  const senders = useApprovedSenders();
  const templateRef = useRef<HTMLTextAreaElement>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<OtpFormValues>({
    initialValues: service
      ? {
          name: service.name,
          senderId: service.senderId,
          template: service.template,
          codeLength: service.codeLength,
          codeType: service.codeType,
          ttlMinutes: service.ttlMinutes,
          maxAttempts: service.maxAttempts,
          sendLimit: service.sendLimit,
          sendWindowMinutes: service.sendWindowMinutes,
          resendCooldownSeconds: service.resendCooldownSeconds,
          allowedCountries: service.allowedCountries,
          velocityMaxSends: service.velocityMaxSends,
          velocityWindowMinutes: service.velocityWindowMinutes,
          velocityRangeDigits: service.velocityRangeDigits,
        }
      : DEFAULTS,
    validate: zodResolver(createOtpServiceSchema),
    validateInputOnBlur: true,
    validateInputOnChange: ['template'],
  });
  const v = form.values;
  const preview = renderOtpText(v.template, {
    code: sampleOtpCode(Number(v.codeLength) || 6, v.codeType),
    minutes: Number(v.ttlMinutes) || 10,
    // A marker until the service has a name: "Your app" read "Your Your app code is…" (issue 47, defect 5).
    service: v.name.trim() || t(OTP_PREVIEW_UNNAMED),
  });
  const info = analyseSmsText(preview);
  const senderOptions = useMemo(() => {
    const list = senders.data ?? [];
    const values = v.senderId && !list.includes(v.senderId) ? [...list, v.senderId] : list;
    return [
      { value: '', label: t('Account default sender') },
      ...values.map((s) => ({ value: s, label: s })),
    ];
  }, [senders.data, v.senderId, t]);

  const insert = (name: string) => {
    const field = templateRef.current;
    const start = field?.selectionStart ?? v.template.length;
    const end = field?.selectionEnd ?? start;
    const token = `{{${name}}}`;
    form.setFieldValue('template', v.template.slice(0, start) + token + v.template.slice(end));
    requestAnimationFrame(() => {
      field?.focus();
      field?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({ id: service?.id, values });
      toast.success(
        service
          ? t('OTP service "{{name}}" has been updated.', { name: saved.name })
          : t('OTP service "{{name}}" has been created.', { name: saved.name }),
      );
      void navigate(paths.otp.view.getHref(saved.id));
    } catch (error) {
      setFormError(applySubmitError(form, error));
    }
  });

  const num = (field: keyof OtpFormValues) => {
    const props = form.getInputProps(field);
    return {
      ...props,
      onChange: (n: string | number) => form.setFieldValue(field, n === '' ? '' : Number(n)),
    };
  };

  return (
    <form onSubmit={submit} noValidate aria-label={service ? t('Edit OTP service') : t('Create OTP service')}>
      <Stack gap="lg" maw={960}>
        <Section
          title={t('Message')}
          description={t('What your users receive. {{code}} is required.', { code: '{{code}}' })}
        >
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('Name')}
                placeholder={t('Acme sign-in')}
                required
                data-autofocus
                {...form.getInputProps('name')}
              />
              <Select
                label={t('Sender ID')}
                description={t('An approved sender ID of your account')}
                data={senderOptions}
                allowDeselect={false}
                {...form.getInputProps('senderId')}
              />
            </SimpleGrid>
            <Textarea
              ref={templateRef}
              label={t('Message template')}
              required
              autosize
              minRows={3}
              maxRows={8}
              {...form.getInputProps('template')}
            />
            <Group gap="xs">
              <Text size="xs" c="dimmed">
                {t('Insert:')}
              </Text>
              {OTP_PLACEHOLDERS.map((name) => (
                <Button key={name} size="compact-xs" variant="light" onClick={() => insert(name)}>
                  {`{{${name}}}`}
                </Button>
              ))}
            </Group>
            <div>
              <Input.Label labelElement="div" mb={4} id="otp-preview-label">
                {t('Preview')}
              </Input.Label>
              <Paper
                withBorder
                p="sm"
                radius="md"
                bg="var(--mantine-color-default-hover)"
                aria-labelledby="otp-preview-label"
              >
                <Text size="sm" data-testid="otp-preview" style={{ whiteSpace: 'pre-wrap' }}>
                  {preview}
                </Text>
              </Paper>
              <Group gap="xs" mt={6} aria-live="polite" data-testid="otp-segments">
                <ToneBadge color={info.encoding === 'UCS-2' ? 'grape' : 'teal'}>
                  {info.encoding === 'UCS-2' ? t('Unicode (UCS-2)') : 'GSM-7'}
                </ToneBadge>
                <Badge variant="default" tt="none">
                  {t('{{count}} characters', { count: info.characters })}
                </Badge>
                <Badge
                  variant={info.segments > MAX_SEGMENTS ? 'filled' : 'default'}
                  color={info.segments > 1 ? 'orange' : undefined}
                  tt="none"
                >
                  {info.segments === 1
                    ? t('{{count}} SMS segment', { count: info.segments })
                    : t('{{count}} SMS segments', { count: info.segments })}
                </Badge>
                {info.segments > 1 && (
                  <Text size="xs" c="dimmed">
                    {t('Each code costs {{count}} SMS; a shorter message fits in one.', {
                      count: info.segments,
                    })}
                  </Text>
                )}
              </Group>
            </div>
          </Stack>
        </Section>

        <Section title={t('Code')} description={t('How codes look and how long they work.')}>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
            <div>
              <Input.Label id="otp-code-type-label" mb={4}>
                {t('Characters')}
              </Input.Label>
              <SegmentedControl
                fullWidth
                aria-labelledby="otp-code-type-label"
                data={[
                  { value: 'numeric', label: t('Digits') },
                  { value: 'alphanumeric', label: t('Letters + digits') },
                ]}
                value={v.codeType}
                onChange={(value) => form.setFieldValue('codeType', value)}
              />
            </div>
            <NumberInput label={t('Code length')} min={4} max={10} {...num('codeLength')} />
            <NumberInput label={t('Lifetime (minutes)')} min={1} max={60} {...num('ttlMinutes')} />
            <NumberInput label={t('Check attempts')} min={1} max={20} {...num('maxAttempts')} />
          </SimpleGrid>
        </Section>

        <Section
          title={t('Fraud protection')}
          description={t(
            'On by default. Limits refuse a send with 429 and record why; no SMS is sent or charged.',
          )}
        >
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <NumberInput
                label={t('Codes per number')}
                description={t('in the send window')}
                min={1}
                max={100}
                {...num('sendLimit')}
              />
              <NumberInput
                label={t('Send window (minutes)')}
                min={1}
                max={1440}
                {...num('sendWindowMinutes')}
              />
              <NumberInput
                label={t('Resend cooldown (seconds)')}
                description={t('between two codes to one number')}
                min={0}
                max={3600}
                {...num('resendCooldownSeconds')}
              />
            </SimpleGrid>
            <MultiSelect
              label={t('Allowed countries')}
              description={t('Codes go only to these countries. Leave empty to allow every country.')}
              placeholder={v.allowedCountries.length ? undefined : t('All countries')}
              data={countries}
              searchable
              clearable
              {...form.getInputProps('allowedCountries')}
            />
            <Text size="sm" fw={500} mt="xs">
              {t('SMS pumping guard')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <NumberInput
                label={t('Sends per number range')}
                description={t('more than this blocks the range')}
                min={2}
                max={10000}
                {...num('velocityMaxSends')}
              />
              <NumberInput
                label={t('Within (minutes)')}
                min={1}
                max={1440}
                {...num('velocityWindowMinutes')}
              />
              <NumberInput
                label={t('Range size (last digits)')}
                description={t('3 = blocks of {{count}} numbers', {
                  count: formatNumber(10 ** (Number(v.velocityRangeDigits) || 3)),
                })}
                min={1}
                max={6}
                {...num('velocityRangeDigits')}
              />
            </SimpleGrid>
          </Stack>
        </Section>

        <FormAlert message={formError} />
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() =>
              void navigate(service ? paths.otp.view.getHref(service.id) : paths.otp.list.getHref())
            }
          >
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {service ? t('Save changes') : t('Create service')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
