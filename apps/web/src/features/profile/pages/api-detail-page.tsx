import { useState } from 'react';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  PasswordInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_KEYS_API, type ApiDetail } from '@wren/contracts';
import { Link } from 'react-router';
import { FormAlert } from '@/components/form-alert';
import { InlineCode } from '@/components/inline-code';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';
import { http } from '@/lib/http/client';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';

const detailKey = ['api-keys', 'detail'] as const;

function CopyValue({ value, label, size = 'xs' }: { value: string; label: string; size?: 'xs' | 'sm' }) {
  const t = useT();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button
          size={size}
          variant="default"
          onClick={copy}
          // Never squeezed by a long value beside it (a narrow phone cut it to "Cop").
          style={{ flexShrink: 0 }}
          aria-label={copied ? t('Copied {{label}}', { label }) : t('Copy {{label}}', { label })}
        >
          {copied ? t('Copied') : t('Copy')}
        </Button>
      )}
    </CopyButton>
  );
}

function Row({ label, value, copy }: { label: string; value: React.ReactNode; copy?: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" py={6}>
      <div style={{ minWidth: 0 }}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          {label}
        </Text>
        {/* Long values (an id, a URL) wrap where they must, words stay whole where they can. */}
        <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
          {value}
        </Text>
      </div>
      {copy && <CopyValue value={copy} label={label} />}
    </Group>
  );
}

/** The account's API connection details: base URL, account id, webhook secret and URL, last call. */
export default function ApiDetailPage() {
  const t = useT();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: detailKey,
    queryFn: async () => (await http.get<ApiDetail>(API_KEYS_API.detail)).data,
  });
  const rotate = useMutation({
    mutationFn: async () => (await http.post<ApiDetail>(API_KEYS_API.rotateWebhookSecret)).data,
    onSuccess: (d) => queryClient.setQueryData(detailKey, d),
  });
  const saveUrl = useMutation({
    mutationFn: async (webhookUrl: string | null) =>
      (await http.put<ApiDetail>(API_KEYS_API.webhookSettings, { webhookUrl })).data,
    onSuccess: (d) => queryClient.setQueryData(detailKey, d),
  });
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [rotateError, setRotateError] = useState<string | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);

  if (detail.isPending) return <Skeleton height={420} radius="md" maw={860} />;
  if (detail.isError) {
    return (
      <Alert color="red" title={t('Could not load your API details')} maw={860}>
        {messageOf(detail.error)}
      </Alert>
    );
  }
  const d = detail.data;
  const base = `${window.location.origin}/v1`;
  const urlValue = url ?? d.webhookUrl ?? '';

  const doRotate = async () => {
    setRotateError(null);
    try {
      await rotate.mutateAsync();
      setConfirmRotate(false);
      toast.success(t('New webhook secret made: deliveries are signed with it from now on.'));
    } catch (e) {
      setRotateError(messageOf(e));
    }
  };

  const doSaveUrl = async () => {
    setUrlError(null);
    try {
      await saveUrl.mutateAsync(urlValue.trim() || null);
      setUrl(null);
      toast.success(urlValue.trim() ? t('Webhook URL saved.') : t('Webhook URL removed.'));
    } catch (e) {
      setUrlError(messageOf(e));
    }
  };

  return (
    <Stack gap="lg" maw={860}>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          {t('Connection')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Row label={t('Base URL')} value={<Code>{base}</Code>} copy={base} />
          <Row label={t('Account ID')} value={<Code>{d.accountId}</Code>} copy={d.accountId} />
          <Row
            label={t('Last API call')}
            value={
              d.lastCall
                ? t('{{at}} from {{ip}} ({{prefix}}…)', {
                    at: formatDateTime(d.lastCall.at),
                    ip: d.lastCall.ip ?? t('an unknown address'),
                    prefix: d.lastCall.keyPrefix,
                  })
                : t('No calls yet')
            }
          />
          <Row
            label={t('Active keys')}
            value={d.keyPrefixes.length ? d.keyPrefixes.map((p) => `${p}…`).join(', ') : t('None')}
          />
        </SimpleGrid>
        <Group mt="md" gap="sm">
          <Button component={Link} to={paths.api.list.getHref()} variant="light">
            {t('Manage API keys')}
          </Button>
          <Button component={Link} to={paths.profile.apiDoc.getHref()} variant="default">
            {t('Quick start')}
          </Button>
        </Group>
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb={4}>
          {t('Delivery webhooks')}
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          <InlineCode
            text={t(
              'Wren POSTs an event for every final status of a message sent through the API, and for every inbound message, signed per the Standard Webhooks spec (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Failed deliveries are retried with backoff for 24 hours.',
            )}
          />
        </Text>
        <Stack gap="md">
          {/* A field with its buttons: side by side, or the buttons on their own line on a phone. */}
          <Group align="flex-end" gap="xs">
            <PasswordInput
              label={t('Signing secret')}
              description={t('Made {{at}}', { at: formatDateTime(d.webhookSecretRotatedAt) })}
              value={d.webhookSecret}
              readOnly
              style={{ flex: '1 1 260px' }}
            />
            <Group gap="xs" wrap="nowrap">
              <CopyValue value={d.webhookSecret} label={t('signing secret')} size="sm" />
              <Button variant="default" onClick={() => setConfirmRotate(true)}>
                {t('Rotate')}
              </Button>
            </Group>
          </Group>
          <Group align="flex-end" gap="xs">
            <TextInput
              label={t('Account webhook URL')}
              description={t(
                'Receives inbound messages and the final status of every message (web, campaigns, and API sends whose key and request name no URL). A public http(s) address.',
              )}
              placeholder="https://example.com/wren/webhook"
              value={urlValue}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={urlError}
              style={{ flex: '1 1 260px' }}
            />
            <Button onClick={() => void doSaveUrl()} loading={saveUrl.isPending} disabled={url === null}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </Paper>

      <Modal
        opened={confirmRotate}
        onClose={() => setConfirmRotate(false)}
        title={t('Rotate webhook secret')}
        centered
      >
        <Stack>
          <Text size="sm">
            {t(
              'Make a new signing secret? Deliveries are signed with the new secret at once, so update your receiver right after, or its signature checks will fail (failed deliveries are retried for 24 hours).',
            )}
          </Text>
          <FormAlert message={rotateError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmRotate(false)} data-autofocus>
              {t('Cancel')}
            </Button>
            <Button loading={rotate.isPending} onClick={() => void doRotate()}>
              {t('Rotate secret')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
