import { Anchor, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { API_KEY_MARK, API_KEYS_API, type ApiDetail } from '@wren/contracts';
import { Link } from 'react-router';
import { ApiSampleTabs, CodeSample, sendMessageSamples } from '@/components/api-samples';
import { InlineCode } from '@/components/inline-code';
import { paths } from '@/config/paths';
import { http } from '@/lib/http/client';
import { useT } from '@/lib/i18n';
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
  const t = useT();
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
          {t('Quick start')}
        </Title>
        <List type="ordered" spacing="xs" size="sm">
          <List.Item>
            <Anchor component={Link} to={paths.api.create.getHref()} underline="always">
              {t('Create an API key')}
            </Anchor>{' '}
            <InlineCode text={t('with the `sms:send` scope and copy it (it is shown once).')} />
          </List.Item>
          <List.Item>
            <InlineCode
              text={t('Store it on your server as `WREN_API_KEY`: never in a browser or mobile app.')}
            />
          </List.Item>
          <List.Item>
            <InlineCode
              text={t(
                'Send: `POST {{base}}/v1/messages` with `{{body}}`. The answer (202) has one message per recipient with its id, status, segments and price.',
                { base, body: '{"to": "+14155550123", "text": "…"}' },
              )}
            />
          </List.Item>
          <List.Item>
            <InlineCode
              text={t(
                'Follow the status with `GET /v1/messages/:id`, or better, a delivery webhook (below).',
              )}
            />
          </List.Item>
        </List>
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="xs">
          {t('Send an SMS')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          <InlineCode
            text={t(
              'For {{base}}, with your key {{prefix}}… in `WREN_API_KEY`. `to` may be one number or a list of up to 1,000.',
              { base, prefix },
            )}
          />
        </Text>
        <ApiSampleTabs name={t('Send an SMS')} samples={sendMessageSamples(base, prefix)} />
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="xs">
          {t('Retry safely')}
        </Title>
        <Text size="sm">
          <InlineCode
            text={t(
              'Send an `Idempotency-Key` header (a UUID) with every POST. A retry with the same key and body gets the first answer again (with `Idempotent-Replayed: true`) for 24 hours, so a timeout never sends twice; the same key with a different body is refused with 422. Rate limits are per key: every answer has `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; a 429 says how long to wait in `Retry-After`.',
            )}
          />
        </Text>
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="xs">
          {t('Errors')}
        </Title>
        <Text size="sm" mb="sm">
          <InlineCode
            text={t('Every error has the same shape: `{{shape}}`.', {
              shape: '{"error": {"type", "code", "message", "param"}}',
            })}
          />
        </Text>
        <V1ErrorTable />
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="xs">
          {t('Delivery webhooks')}
        </Title>
        <Text size="sm" mb="sm">
          <InlineCode text={t('Set a URL per request (`callbackUrl`), per key, or for the account on')} />{' '}
          <Anchor component={Link} to={paths.profile.apiDetail.getHref()} underline="always">
            {t('API detail')}
          </Anchor>
          {t(
            ', where the signing secret is. Verify each event with the Standard Webhooks library for your language:',
          )}
        </Text>
        <CodeSample code={VERIFY} label={t('webhook receiver in Node.js')} />
      </Paper>

      <Text size="sm">
        {t('Every endpoint, with a try-it console:')}{' '}
        <Anchor component={Link} to={paths.api.doc.getHref()} underline="always">
          {t('API reference')}
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
