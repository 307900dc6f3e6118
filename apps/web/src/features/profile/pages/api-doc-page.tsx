import { Anchor, Code, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { API_KEY_MARK, API_KEYS_API, type ApiDetail } from '@wren/contracts';
import { Link } from 'react-router';
import { ApiSampleTabs, CodeSample, sendMessageSamples } from '@/components/api-samples';
import { paths } from '@/config/paths';
import { http } from '@/lib/http/client';
import { V1ErrorTable } from '../components/v1-error-table';

const VERIFY = `import { Webhook } from 'standardwebhooks'; // npm i standardwebhooks

const wh = new Webhook(process.env.WREN_WEBHOOK_SECRET); // whsec_… from Profile → API detail
app.post('/wren/webhook', express.raw({ type: 'application/json' }), (req, res) => {
  const event = wh.verify(req.body, req.headers); // throws when the signature is wrong or old
  if (event.type === 'message.status') markDelivered(event.data.id, event.data.status);
  res.sendStatus(204); // answer 2xx quickly; the same webhook-id may arrive again: ignore repeats
});`;

/** The quick start: a key, the first send, retries, errors and webhooks, with pasteable samples. */
export default function ApiDocPage() {
  const detail = useQuery({
    queryKey: ['api-keys', 'detail'],
    queryFn: async () => (await http.get<ApiDetail>(API_KEYS_API.detail)).data,
  });
  const prefix = detail.data?.keyPrefixes[0] ?? `${API_KEY_MARK}YOUR_KEY`;
  const base = window.location.origin;

  return (
    <Stack gap="lg" maw={960}>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          Quick start
        </Title>
        <List type="ordered" spacing="xs" size="sm">
          <List.Item>
            <Anchor component={Link} to={paths.api.create.getHref()} underline="always">
              Create an API key
            </Anchor>{' '}
            with the <Code>sms:send</Code> scope and copy it (it is shown once).
          </List.Item>
          <List.Item>
            Store it on your server as <Code>WREN_API_KEY</Code>: never in a browser or mobile app.
          </List.Item>
          <List.Item>
            Send: <Code>POST {base}/v1/messages</Code> with{' '}
            <Code>{'{"to": "+14155550123", "text": "…"}'}</Code>. The answer (202) has one message per
            recipient with its id, status, segments and price.
          </List.Item>
          <List.Item>
            Follow the status with <Code>GET /v1/messages/:id</Code>, or better, a delivery webhook (below).
          </List.Item>
        </List>
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="xs">
          Send an SMS
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          For {base}, with your key {prefix}… in <Code>WREN_API_KEY</Code>. <Code>to</Code> may be one number
          or a list of up to 1,000.
        </Text>
        <ApiSampleTabs name="Send an SMS" samples={sendMessageSamples(base, prefix)} />
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="xs">
          Retry safely
        </Title>
        <Text size="sm">
          Send an <Code>Idempotency-Key</Code> header (a UUID) with every POST. A retry with the same key and
          body gets the first answer again (with <Code>Idempotent-Replayed: true</Code>) for 24 hours, so a
          timeout never sends twice; the same key with a different body is refused with 422. Rate limits are
          per key: every answer has <Code>RateLimit-Limit</Code>, <Code>RateLimit-Remaining</Code> and{' '}
          <Code>RateLimit-Reset</Code>; a 429 says how long to wait in <Code>Retry-After</Code>.
        </Text>
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="xs">
          Errors
        </Title>
        <Text size="sm" mb="sm">
          Every error has the same shape: <Code>{'{"error": {"type", "code", "message", "param"}}'}</Code>.
        </Text>
        <V1ErrorTable />
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="xs">
          Delivery webhooks
        </Title>
        <Text size="sm" mb="sm">
          Set a URL per request (<Code>callbackUrl</Code>), per key, or for the account on{' '}
          <Anchor component={Link} to={paths.profile.apiDetail.getHref()} underline="always">
            API detail
          </Anchor>
          , where the signing secret is. Verify each event with the Standard Webhooks library for your
          language:
        </Text>
        <CodeSample code={VERIFY} label="webhook receiver in Node.js" />
      </Paper>

      <Text size="sm">
        Every endpoint, with a try-it console:{' '}
        <Anchor component={Link} to={paths.api.doc.getHref()} underline="always">
          API reference
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
