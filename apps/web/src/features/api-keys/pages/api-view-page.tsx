import { useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { ApiKeyCreated } from '@wren/contracts';
import { Link, useParams } from 'react-router';
import { ApiSampleTabs, sendMessageSamples } from '@/components/api-samples';
import { FormAlert } from '@/components/form-alert';
import { paths } from '@/config/paths';
import { formatDateTimeOr, formatNumber } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { translate, useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useApiKey, useRevokeApiKey, useRotateApiKey } from '../api/api-keys';
import { IconBan, IconChart, IconPencil, IconRotate } from '../components/icons';
import { KeyLoadError } from '../components/key-load-error';
import { KeyStatusBadge } from '../components/key-status-badge';
import { SecretOnce } from '@/components/secret-once';
import { rich } from '../components/rich';

const when = (iso: string | null) => formatDateTimeOr(iso, translate('Never'));

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" mt={2}>
        {children}
      </Text>
    </div>
  );
}

export default function ApiViewPage() {
  const t = useT();
  const { id = '' } = useParams();
  const key = useApiKey(id);
  const revoke = useRevokeApiKey();
  const rotate = useRotateApiKey();
  const [confirm, setConfirm] = useState<'revoke' | 'rotate' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [rotated, setRotated] = useState<ApiKeyCreated | null>(null);

  if (key.isPending) return <Skeleton height={420} radius="md" />;
  if (key.isError) return <KeyLoadError error={key.error} />;
  const k = key.data;
  const active = k.status !== 'revoked';

  const act = async () => {
    setError(null);
    try {
      if (confirm === 'revoke') {
        await revoke.mutateAsync(id);
        toast.success(t('"{{name}}" is revoked: requests with it are refused.', { name: k.name }));
      } else {
        setRotated(await rotate.mutateAsync(id));
        toast.success(t('New secret made; the old one no longer works.'));
      }
      setConfirm(null);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Stack gap="lg">
      {rotated && (
        <SecretOnce
          secret={rotated.secret}
          doneLabel={t('I have copied it')}
          onDone={() => setRotated(null)}
        />
      )}
      <Paper withBorder radius="md" p="lg">
        <Group justify="space-between" wrap="wrap" gap="sm" mb="md">
          <Group gap="sm">
            <Title order={2} size="h4">
              {k.name}
            </Title>
            <KeyStatusBadge status={k.status} />
          </Group>
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconChart />}
              component={Link}
              to={paths.api.report.getHref(id)}
            >
              {t('Report')}
            </Button>
            {active && (
              <>
                <Button
                  variant="default"
                  leftSection={<IconPencil />}
                  component={Link}
                  to={paths.api.edit.getHref(id)}
                >
                  {t('Edit')}
                </Button>
                <Button variant="default" leftSection={<IconRotate />} onClick={() => setConfirm('rotate')}>
                  {t('Rotate secret')}
                </Button>
                <Button
                  color="red"
                  variant="light"
                  leftSection={<IconBan />}
                  onClick={() => setConfirm('revoke')}
                >
                  {t('Revoke')}
                </Button>
              </>
            )}
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          <Field label={t('Key')}>
            <Code>{k.prefix}…</Code>
          </Field>
          <Field label={t('Scopes')}>
            <Group gap={4}>
              {k.scopes.map((s) => (
                <Badge key={s} variant="outline" size="sm" tt="none">
                  {s}
                </Badge>
              ))}
            </Group>
          </Field>
          <Field label={t('Allowed IP addresses')}>
            {k.ipAllowlist.length ? k.ipAllowlist.join(', ') : t('Any address')}
          </Field>
          <Field label={t('Expires')}>{when(k.expiresAt)}</Field>
          <Field label={t('Rate limit')}>
            {k.rateLimitPerMinute
              ? t('{{count}} requests per minute', { count: formatNumber(k.rateLimitPerMinute) })
              : t('Server default')}
          </Field>
          <Field label={t('Default webhook URL')}>
            {k.webhookUrl ?? t('None (the account URL, if set)')}
          </Field>
          <Field label={t('Created')}>{when(k.createdAt)}</Field>
          <Field label={t('Last used')}>
            {when(k.lastUsedAt)}
            {k.lastUsedIp ? ` ${t('from {{ip}}', { ip: k.lastUsedIp })}` : ''}
          </Field>
          <Field label={t('Requests in the last 24 hours')}>{formatNumber(k.requests24h)}</Field>
          {k.revokedAt && <Field label={t('Revoked')}>{when(k.revokedAt)}</Field>}
        </SimpleGrid>
      </Paper>
      {active && (
        <Paper withBorder radius="md" p="lg">
          <Title order={2} size="h4" mb="xs">
            {t('Send your first message with this key')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {rich(t, 'Put the secret in {{variable}} on your server. Full reference:', {
              variable: <Code>WREN_API_KEY</Code>,
            })}{' '}
            <Anchor component={Link} to={paths.api.doc.getHref()} underline="always">
              {t('API documentation')}
            </Anchor>
            .
          </Text>
          <ApiSampleTabs
            name={t('Send an SMS')}
            samples={sendMessageSamples(window.location.origin, k.prefix)}
          />
        </Paper>
      )}
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm === 'revoke' ? t('Revoke API key') : t('Rotate secret')}
        centered
      >
        <Stack>
          <Text size="sm">
            {confirm === 'revoke'
              ? t(
                  'Revoke "{{name}}"? Every request with it is refused within a few seconds, on every server. This cannot be undone.',
                  { name: k.name },
                )
              : t(
                  'Make a new secret for "{{name}}"? The current secret stops working within a few seconds; update your systems with the new one, which is shown once.',
                  { name: k.name },
                )}
          </Text>
          <FormAlert message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)} data-autofocus>
              {t('Cancel')}
            </Button>
            <Button
              color={confirm === 'revoke' ? 'red' : undefined}
              loading={revoke.isPending || rotate.isPending}
              onClick={() => void act()}
            >
              {confirm === 'revoke' ? t('Revoke key') : t('Rotate secret')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
