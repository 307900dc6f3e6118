import { Anchor, Card, Code, Group, List, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { OTP_API_ERRORS, V1_ERRORS } from '@wren/contracts';
import { Link } from 'react-router';
import { CodeSample } from '@/components/api-samples';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';

const LANGUAGES = ['curl', 'Node.js', 'Python', 'PHP'] as const;
type Language = (typeof LANGUAGES)[number];

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
  const base = window.location.origin;
  const id = serviceId ?? 'YOUR_SERVICE_ID';
  const samples = otpSamples(base, id);
  return (
    <Stack gap="lg" maw={960}>
      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="sm">
          How it works
        </Title>
        <List type="ordered" spacing="xs" size="sm">
          <List.Item>
            Your backend calls <b>send</b> with the user&apos;s phone number. Wren makes a random code, sends
            it on the priority lane and answers with a verification id.
          </List.Item>
          <List.Item>The user types the code from the SMS into your app.</List.Item>
          <List.Item>
            Your backend calls <b>check</b> with the number (or the verification id) and the code. When the
            status is <Code>approved</Code>, the number is verified. A code is approved once only.
          </List.Item>
        </List>
        <Text size="sm" mt="md">
          {serviceId ? (
            <>
              Service <b>{serviceName}</b>: id <Code data-testid="doc-service-id">{serviceId}</Code>, filled
              in below.
            </>
          ) : (
            <>
              Replace <Code>YOUR_SERVICE_ID</Code> with your service&apos;s id, or open the docs from a{' '}
              <Anchor underline="always" component={Link} to={paths.otp.list.getHref()}>
                service
              </Anchor>{' '}
              to have it filled in.
            </>
          )}
        </Text>
        <Text size="sm" c="dimmed" mt="xs">
          Authenticate with <Code>Authorization: Bearer …</Code>: an API key with the <Code>otp</Code> scope (
          <Anchor underline="always" component={Link} to={paths.api.list.getHref()}>
            SMS &amp; OTP API
          </Anchor>
          ) or a signed-in session&apos;s access token. Never call the API from a browser or app with your
          key.
        </Text>
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="xs">
          1. Send a code
        </Title>
        <Text size="sm" mb="xs">
          <Code>POST {`${base}/v1/otp/${id}/send`}</Code> with <Code>{'{ "to": "+14155550123" }'}</Code> →{' '}
          <b>201</b> <Code>{'{ id, to, status: "pending", expiresAt, resendAfter }'}</Code>. A new send to the
          same number replaces its previous code. Numbers without <Code>+</Code> are read in your default
          country.
        </Text>
        <Title order={2} size="h4" mt="lg" mb="xs">
          2. Check the code
        </Title>
        <Text size="sm" mb="xs">
          <Code>POST {`${base}/v1/otp/${id}/check`}</Code> with{' '}
          <Code>{'{ "to": "+14155550123", "code": "123456" }'}</Code> (or <Code>id</Code> instead of{' '}
          <Code>to</Code>) → <b>200</b> <Code>{'{ id, status, attemptsLeft?, message }'}</Code>.
        </Text>
        <ResponsiveTable verticalSpacing={6} aria-label="Check statuses">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>status</Table.Th>
              <Table.Th>meaning</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[
              ['approved', 'The code is right. Accept the user.'],
              ['pending', 'Wrong code; attemptsLeft says how many tries remain.'],
              ['expired', 'The code is too old, or a newer code was sent. Send a new one.'],
              ['max_attempts_reached', 'Too many wrong codes. Send a new one.'],
            ].map(([s, m]) => (
              <Table.Tr key={s}>
                <Table.Td data-label="status">
                  <Code>{s}</Code>
                </Table.Td>
                <Table.Td data-label="meaning">{m}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="sm">
          Samples
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
                  Send
                </Text>
                <CodeSample code={samples[l].send} label={`${l} send sample`} />
                <Text size="sm" fw={500}>
                  Check
                </Text>
                <CodeSample code={samples[l].check} label={`${l} check sample`} />
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="sm">
          Errors
        </Title>
        <Text size="sm" mb="sm">
          A refused call answers with its HTTP status and{' '}
          <Code>{'{"error": {"type": "…", "code": "rate_limited", "message": "…", "param": "…"}}'}</Code>, as
          every <Code>/v1</Code> call does (<Code>param</Code> names the field when there is one). A refused
          send sends and charges nothing.
        </Text>
        <ResponsiveTable verticalSpacing={6} aria-label="Error codes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>status</Table.Th>
              <Table.Th>code</Table.Th>
              <Table.Th>when</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {OTP_API_ERRORS.map(({ code, when }) => (
              <Table.Tr key={code}>
                <Table.Td data-label="status">{V1_ERRORS[code][0]}</Table.Td>
                <Table.Td data-label="code">
                  <Code>{code}</Code>
                </Table.Td>
                <Table.Td data-label="when">{when}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
        <Group mt="md">
          <Text size="xs" c="dimmed">
            Limits are per service: codes per number and window, resend cooldown, allowed countries and the
            SMS pumping guard (a number range that gets too many codes is paused for an hour).
          </Text>
        </Group>
      </Card>
    </Stack>
  );
}
