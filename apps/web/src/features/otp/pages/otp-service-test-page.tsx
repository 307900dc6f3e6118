import { useEffect, useState } from 'react';
import { Alert, Button, Card, Code, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  CAPTCHA_HEADER,
  MESSAGING_API,
  otpCheckPath,
  otpSendPath,
  type MessageDto,
  type OtpServiceDto,
} from '@wren/contracts';
import { useParams } from 'react-router';
// The ALTCHA proof-of-work widget of the auth feature (issue #14): a send from a browser session
// carries a solved challenge, as the server asks.
// eslint-disable-next-line no-restricted-imports
import { useCaptcha } from '@/features/auth/components/captcha';
import { http } from '@/lib/http/client';
import { formatTime } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useCurrentUser } from '@/lib/use-session';
import { useOtpService } from '../api/otp-services';
import { isMissing, ServiceNotFound } from '../components/service-not-found';
import { ToneBadge } from '../components/tone-badge';

interface Exchange {
  method: 'POST';
  path: string;
  body: unknown;
  status?: number;
  response?: unknown;
  error?: string;
}

/** One API call as a developer would see it: the request, then the status and JSON response. */
function ExchangeView({ step, title, exchange }: { step: number; title: string; exchange: Exchange }) {
  const t = useT();
  const ok = exchange.status !== undefined && exchange.status < 300;
  return (
    <Card withBorder radius="md" padding="md" data-testid={`otp-step-${step}`}>
      <Group justify="space-between" mb="xs">
        <Text fw={600} size="sm">
          {step}. {title}
        </Text>
        {exchange.status !== undefined && (
          <ToneBadge color={ok ? 'teal' : 'red'} data-testid={`otp-step-${step}-status`}>
            HTTP {exchange.status}
          </ToneBadge>
        )}
      </Group>
      <Text size="xs" c="dimmed" mb={4}>
        {t('Request')}
      </Text>
      <Code block mb="sm">
        {`${exchange.method} ${exchange.path}\nContent-Type: application/json\n\n${JSON.stringify(exchange.body, null, 2)}`}
      </Code>
      <Text size="xs" c="dimmed" mb={4}>
        {t('Response')}
      </Text>
      {exchange.status === undefined && !exchange.error ? (
        <Skeleton height={40} />
      ) : (
        <Code block data-testid={`otp-step-${step}-response`}>
          {exchange.error ?? JSON.stringify(exchange.response, null, 2)}
        </Code>
      )}
    </Card>
  );
}

async function call(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Exchange> {
  try {
    const res = await http.post<unknown>(path, body, {
      validateStatus: () => true,
      noOverlay: true,
      headers,
    });
    return { method: 'POST', path, body, status: res.status, response: res.data };
  } catch (error) {
    return { method: 'POST', path, body, error: messageOf(error) };
  }
}

/** The SMS as the SMSC (the simulator, in a demo) got it, from the account's message log. */
function DeliveredSms({ messageId }: { messageId: string }) {
  const t = useT();
  const sms = useQuery({
    queryKey: ['sms-message', messageId, 'otp-test'],
    queryFn: async () =>
      (await http.get<{ message: MessageDto }>(MESSAGING_API.logItem(messageId), { noOverlay: true })).data
        .message,
    refetchInterval: (q) =>
      q.state.data && !['queued', 'sending', 'scheduled'].includes(q.state.data.status) ? false : 500,
  });
  if (!sms.data) return <Skeleton height={60} />;
  return (
    <Alert variant="light" color="blue" title={t('The SMS as sent')} data-testid="otp-sms">
      <Text size="sm" data-testid="otp-sms-text">
        {sms.data.text}
      </Text>
      <Text size="xs" c="dimmed" mt={4}>
        {t('From {{sender}} to {{recipient}} · status', {
          sender: sms.data.sender,
          recipient: sms.data.recipient,
        })}{' '}
        <b data-testid="otp-sms-status">{sms.data.status}</b>
        {sms.data.submittedAt
          ? ` · ${t('submitted {{time}}', { time: formatTime(sms.data.submittedAt, { seconds: true }) })}`
          : ''}
      </Text>
    </Alert>
  );
}

function Tester({ service }: { service: OtpServiceDto }) {
  const t = useT();
  const user = useCurrentUser();
  const captcha = useCaptcha();
  const [to, setTo] = useState('');
  const [code, setCode] = useState('');
  const [send, setSend] = useState<Exchange | null>(null);
  const [check, setCheck] = useState<Exchange | null>(null);
  const [busy, setBusy] = useState<'send' | 'check' | null>(null);
  useEffect(() => {
    if (user?.phone) setTo((v) => v || user.phone);
  }, [user?.phone]);

  const sent =
    send?.status === 201 ? (send.response as { id: string; messageId: string; expiresAt: string }) : null;

  const doSend = async () => {
    setBusy('send');
    setCheck(null);
    setCode('');
    const body = { to: to.trim() };
    setSend({ method: 'POST', path: otpSendPath(service.id), body });
    const solution = await captcha.solution();
    const result = await call(otpSendPath(service.id), body, solution ? { [CAPTCHA_HEADER]: solution } : {});
    captcha.renew();
    setSend(result);
    setBusy(null);
  };

  const doCheck = async () => {
    if (!sent) return;
    setBusy('check');
    const body = { id: sent.id, code: code.trim() };
    setCheck({ method: 'POST', path: otpCheckPath(service.id), body });
    setCheck(await call(otpCheckPath(service.id), body));
    setBusy(null);
  };

  return (
    <Stack gap="lg" maw={900}>
      <Text size="sm" c="dimmed">
        {t('Send a real code with')} <b>{service.name}</b>
        {t(
          "'s settings and verify it, exactly as your app would. Each step shows the API request and its response. The SMS is charged like any other.",
        )}
      </Text>
      {/* The proof-of-work runs invisibly; the widget's own markup stays out of sight. */}
      <div style={{ display: 'none' }}>{captcha.widget}</div>
      <Card withBorder radius="md" padding="lg">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void doSend();
          }}
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label={t('Phone number')}
              placeholder="+14155550123"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              required
              w={260}
            />
            <Button type="submit" loading={busy === 'send'} disabled={!to.trim()}>
              {send ? t('Send a new code') : t('Send code')}
            </Button>
          </Group>
        </form>
      </Card>
      {send && <ExchangeView step={1} title={t('Send the code')} exchange={send} />}
      {sent && <DeliveredSms messageId={sent.messageId} />}
      {sent && (
        <Card withBorder radius="md" padding="lg">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void doCheck();
            }}
          >
            <Group align="flex-end" wrap="wrap">
              <TextInput
                label={t('Code from the SMS')}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                maxLength={service.codeLength}
                autoComplete="one-time-code"
                inputMode={service.codeType === 'numeric' ? 'numeric' : 'text'}
                required
                w={200}
                ff="monospace"
              />
              <Button type="submit" loading={busy === 'check'} disabled={!code.trim()}>
                {t('Verify')}
              </Button>
            </Group>
          </form>
        </Card>
      )}
      {check && <ExchangeView step={2} title={t('Check the code')} exchange={check} />}
    </Stack>
  );
}

export default function OtpServiceTestPage() {
  const t = useT();
  const id = useParams().id ?? '';
  const service = useOtpService(id);
  if (service.isPending)
    return <Skeleton height={200} radius="md" aria-label={t('Loading the OTP service')} />;
  if (service.isError)
    return isMissing(service.error) ? (
      <ServiceNotFound />
    ) : (
      <Alert color="red" variant="light" role="alert" title={t('The service could not be loaded')}>
        {messageOf(service.error)}
      </Alert>
    );
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {service.data.name}
      </Title>
      <Tester service={service.data} />
    </Stack>
  );
}
