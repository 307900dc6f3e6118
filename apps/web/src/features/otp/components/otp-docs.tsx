import { Anchor, Card, Code, Group, List, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { OTP_API_ERRORS, V1_ERRORS } from '@wren/contracts';
import { Link } from 'react-router';
import { CodeSample } from '@/components/api-samples';
import { InlineCode } from '@/components/inline-code';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';

const LANGUAGES = ['curl', 'Node.js', 'Python', 'PHP'] as const;
type Language = (typeof LANGUAGES)[number];

/** The check call's statuses and what they mean (English, shown through `t`: keys of locales/otp). */
const CHECK_STATUSES = [
  ['approved', 'The code is right. Accept the user.'],
  ['pending', 'Wrong code; attemptsLeft says how many tries remain.'],
  ['expired', 'The code is too old, or a newer code was sent. Send a new one.'],
  ['max_attempts_reached', 'Too many wrong codes. Send a new one.'],
] as const;

/** Copy-ready samples of the two calls, with the base URL and the service id filled in. */
export function otpSamples(
  base: string,
  serviceId: string,
): Record<Language, { send: string; check: string }> {
  const send = `${base}/v1/otp/${serviceId}/send`;
  const check = `${base}/v1/otp/${serviceId}/check`;
  return {
    curl: {
      send: `curl -X POST '${send}' \\
  -H "Authorization: Bearer $WREN_API_KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"to": "+14155550123"}'`,
      check: `curl -X POST '${check}' \\
  -H "Authorization: Bearer $WREN_API_KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"to": "+14155550123", "code": "123456"}'`,
    },
    'Node.js': {
      send: `// Node.js 18+ (built-in fetch)
const res = await fetch('${send}', {
  method: 'POST',
  headers: {
    Authorization: \`Bearer \${process.env.WREN_API_KEY}\`,
    'Content-Type': 'application/json',
  },
  body: JSON.stringify({ to: '+14155550123' }),
});
const verification = await res.json(); // { id, to, status: 'pending', expiresAt, resendAfter }
if (!res.ok) throw new Error(verification.message);`,
      check: `const res = await fetch('${check}', {
  method: 'POST',
  headers: {
    Authorization: \`Bearer \${process.env.WREN_API_KEY}\`,
    'Content-Type': 'application/json',
  },
  body: JSON.stringify({ to: '+14155550123', code: userInput }),
});
const result = await res.json();
if (res.ok && result.status === 'approved') {
  // signed in
}`,
    },
    Python: {
      send: `import os, requests

res = requests.post(
    "${send}",
    headers={"Authorization": f"Bearer {os.environ['WREN_API_KEY']}"},
    json={"to": "+14155550123"},
    timeout=10,
)
res.raise_for_status()
verification = res.json()  # {"id": ..., "status": "pending", "expiresAt": ...}`,
      check: `res = requests.post(
    "${check}",
    headers={"Authorization": f"Bearer {os.environ['WREN_API_KEY']}"},
    json={"to": "+14155550123", "code": user_input},
    timeout=10,
)
approved = res.ok and res.json()["status"] == "approved"`,
    },
    PHP: {
      send: `<?php
$ch = curl_init('${send}');
curl_setopt_array($ch, [
    CURLOPT_POST => true,
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_HTTPHEADER => [
        'Authorization: Bearer ' . getenv('WREN_API_KEY'),
        'Content-Type: application/json',
    ],
    CURLOPT_POSTFIELDS => json_encode(['to' => '+14155550123']),
]);
$verification = json_decode(curl_exec($ch), true);
$status = curl_getinfo($ch, CURLINFO_RESPONSE_CODE);`,
      check: `<?php
$ch = curl_init('${check}');
curl_setopt_array($ch, [
    CURLOPT_POST => true,
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_HTTPHEADER => [
        'Authorization: Bearer ' . getenv('WREN_API_KEY'),
        'Content-Type: application/json',
    ],
    CURLOPT_POSTFIELDS => json_encode(['to' => '+14155550123', 'code' => $userInput]),
]);
$result = json_decode(curl_exec($ch), true);
$approved = ($result['status'] ?? null) === 'approved';`,
    },
  };
}

/** The OTP API documentation: the flow, both calls, error codes and samples in four languages. */
export function OtpDocs({ serviceId, serviceName }: { serviceId?: string; serviceName?: string }) {
  const t = useT();
  const base = window.location.origin;
  const id = serviceId ?? 'YOUR_SERVICE_ID';
  const samples = otpSamples(base, id);
  return (
    <Stack gap="lg" maw={960}>
      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="sm">
          {t('How it works')}
        </Title>
        <List type="ordered" spacing="xs" size="sm">
          <List.Item>
            {t('Your backend calls')} <b>send</b>{' '}
            {t(
              "with the user's phone number. Wren makes a random code, sends it on the priority lane and answers with a verification id.",
            )}
          </List.Item>
          <List.Item>{t('The user types the code from the SMS into your app.')}</List.Item>
          <List.Item>
            {t('Your backend calls')} <b>check</b>{' '}
            <InlineCode
              text={t(
                'with the number (or the verification id) and the code. When the status is `approved`, the number is verified. A code is approved once only.',
              )}
            />
          </List.Item>
        </List>
        <Text size="sm" mt="md">
          {serviceId ? (
            <>
              {t('Service')} <b>{serviceName}</b>
              {t(': id')} <Code data-testid="doc-service-id">{serviceId}</Code>
              {t(', filled in below.')}
            </>
          ) : (
            <>
              <InlineCode
                text={t("Replace `YOUR_SERVICE_ID` with your service's id, or open the docs from a")}
              />{' '}
              <Anchor underline="always" component={Link} to={paths.otp.list.getHref()}>
                {t('service')}
              </Anchor>{' '}
              {t('to have it filled in.')}
            </>
          )}
        </Text>
        <Text size="sm" c="dimmed" mt="xs">
          <InlineCode
            text={t('Authenticate with `Authorization: Bearer …`: an API key with the `otp` scope (')}
          />
          <Anchor underline="always" component={Link} to={paths.api.list.getHref()}>
            {t('SMS & OTP API')}
          </Anchor>
          {t(
            ") or a signed-in session's access token. Never call the API from a browser or app with your key.",
          )}
        </Text>
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="xs">
          {t('1. Send a code')}
        </Title>
        <Text size="sm" mb="xs">
          <InlineCode
            text={t('`{{request}}` with `{{body}}` →', {
              request: `POST ${base}/v1/otp/${id}/send`,
              body: '{ "to": "+14155550123" }',
            })}
          />{' '}
          <b>201</b>{' '}
          <InlineCode
            text={t(
              '`{{response}}`. A new send to the same number replaces its previous code. Numbers without `+` are read in your default country.',
              { response: '{ id, to, status: "pending", expiresAt, resendAfter }' },
            )}
          />
        </Text>
        <Title order={2} size="h4" mt="lg" mb="xs">
          {t('2. Check the code')}
        </Title>
        <Text size="sm" mb="xs">
          <InlineCode
            text={t('`{{request}}` with `{{body}}` (or `id` instead of `to`) →', {
              request: `POST ${base}/v1/otp/${id}/check`,
              body: '{ "to": "+14155550123", "code": "123456" }',
            })}
          />{' '}
          <b>200</b> <Code>{'{ id, status, attemptsLeft?, message }'}</Code>.
        </Text>
        <ResponsiveTable verticalSpacing={6} aria-label={t('Check statuses')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>status</Table.Th>
              <Table.Th>{t('meaning')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {CHECK_STATUSES.map(([s, m]) => (
              <Table.Tr key={s}>
                <Table.Td data-label="status">
                  <Code>{s}</Code>
                </Table.Td>
                <Table.Td data-label={t('meaning')}>{t(m)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="sm">
          {t('Samples')}
        </Title>
        <Tabs defaultValue="curl" keepMounted={false}>
          <Tabs.List mb="md">
            {LANGUAGES.map((l) => (
              <Tabs.Tab key={l} value={l}>
                {l}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {LANGUAGES.map((l) => (
            <Tabs.Panel key={l} value={l}>
              <Stack gap="sm">
                <Text size="sm" fw={500}>
                  {t('Send')}
                </Text>
                <CodeSample code={samples[l].send} label={t('{{language}} send sample', { language: l })} />
                <Text size="sm" fw={500}>
                  {t('Check')}
                </Text>
                <CodeSample code={samples[l].check} label={t('{{language}} check sample', { language: l })} />
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="sm">
          {t('Errors')}
        </Title>
        <Text size="sm" mb="sm">
          <InlineCode
            text={t(
              'A refused call answers with its HTTP status and `{{body}}`, as every `/v1` call does (`param` names the field when there is one). A refused send sends and charges nothing.',
              { body: '{"error": {"type": "…", "code": "rate_limited", "message": "…", "param": "…"}}' },
            )}
          />
        </Text>
        <ResponsiveTable verticalSpacing={6} aria-label={t('Error codes')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>status</Table.Th>
              <Table.Th>code</Table.Th>
              <Table.Th>{t('when')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {OTP_API_ERRORS.map(({ code, when }) => (
              <Table.Tr key={code}>
                <Table.Td data-label="status">{V1_ERRORS[code][0]}</Table.Td>
                <Table.Td data-label="code">
                  <Code>{code}</Code>
                </Table.Td>
                <Table.Td data-label={t('when')}>{t(when)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
        <Group mt="md">
          <Text size="xs" c="dimmed">
            {t(
              'Limits are per service: codes per number and window, resend cooldown, allowed countries and the SMS pumping guard (a number range that gets too many codes is paused for an hour).',
            )}
          </Text>
        </Group>
      </Card>
    </Stack>
  );
}
