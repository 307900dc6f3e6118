import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Link } from 'react-router';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { formatDateTimeOr, formatNumber } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { translate, useT } from '@/lib/i18n';
import { useApiKeys } from '../api/api-keys';
import { IconKey, IconPlus } from '../components/icons';
import { KeyStatusBadge } from '../components/key-status-badge';
import { rich } from '../components/rich';

const when = (iso: string | null) => formatDateTimeOr(iso, translate('Never'));

export default function ApiListPage() {
  const t = useT();
  const keys = useApiKeys();
  const items = keys.data ?? [];
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <Group justify="space-between" p="md" wrap="wrap" gap="sm">
          <div>
            <Title order={2} size="h4">
              {t('API keys')}
            </Title>
            <Text size="sm" c="dimmed">
              {rich(t, 'Send SMS and one-time codes from your own systems with {{header}}', {
                header: <Code>Authorization: Bearer wren_live_…</Code>,
              })}
            </Text>
          </div>
          <Group gap="sm">
            <Button variant="default" component={Link} to={paths.api.doc.getHref()}>
              {t('API documentation')}
            </Button>
            <Button variant="default" component={Link} to={paths.smpp.list.getHref()}>
              {t('SMPP accounts')}
            </Button>
            <Button leftSection={<IconPlus />} component={Link} to={paths.api.create.getHref()}>
              {t('Create API key')}
            </Button>
          </Group>
        </Group>
        {keys.isPending && (
          <Stack p="md" gap="sm" aria-busy="true" aria-label={t('Loading API keys')}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Stack>
        )}
        {keys.isError && (
          <Alert color="red" m="md" title={t('Could not load your API keys')}>
            <Group justify="space-between">
              <Text size="sm">{messageOf(keys.error)}</Text>
              <Button size="xs" variant="light" onClick={() => void keys.refetch()}>
                {t('Try again')}
              </Button>
            </Group>
          </Alert>
        )}
        {keys.isSuccess && items.length === 0 && (
          <Stack align="center" gap="xs" p="xl">
            <IconKey size={32} />
            <Text fw={600}>{t('No API keys yet')}</Text>
            <Text size="sm" c="dimmed" ta="center" maw={480}>
              {t(
                'Create a key for each system that sends through Wren, with only the scopes it needs. The secret is shown once, when you create it.',
              )}
            </Text>
            <Button mt="sm" leftSection={<IconPlus />} component={Link} to={paths.api.create.getHref()}>
              {t('Create API key')}
            </Button>
          </Stack>
        )}
        {items.length > 0 && (
          <ResponsiveTable minWidth={900} verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Key')}</Table.Th>
                <Table.Th>{t('Scopes')}</Table.Th>
                <Table.Th>{t('Last used')}</Table.Th>
                <Table.Th ta="right">{t('Requests (24 h)')}</Table.Th>
                <Table.Th>{t('Status')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('Actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td data-label={t('Name')}>
                    <Anchor component={Link} to={paths.api.view.getHref(k.id)} fw={600}>
                      {k.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td data-label={t('Key')}>
                    <Code>{k.prefix}…</Code>
                  </Table.Td>
                  <Table.Td data-label={t('Scopes')}>
                    <Group gap={4}>
                      {k.scopes.map((s) => (
                        <Badge key={s} variant="outline" size="sm" tt="none">
                          {s}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td data-label={t('Last used')}>
                    {/* One block: on a phone's card the time and the address stay together. */}
                    <div>
                      <Text size="sm">{when(k.lastUsedAt)}</Text>
                      {k.lastUsedIp && (
                        <Text size="xs" c="dimmed">
                          {t('from {{ip}}', { ip: k.lastUsedIp })}
                        </Text>
                      )}
                    </div>
                  </Table.Td>
                  <Table.Td data-label={t('Requests (24 h)')} ta="right">
                    {formatNumber(k.requests24h)}
                  </Table.Td>
                  <Table.Td data-label={t('Status')}>
                    <KeyStatusBadge status={k.status} />
                  </Table.Td>
                  <Table.Td data-label="">
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="subtle" component={Link} to={paths.api.report.getHref(k.id)}>
                        {t('Report')}
                      </Button>
                      <Button size="xs" variant="light" component={Link} to={paths.api.view.getHref(k.id)}>
                        {t('View')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        )}
      </Paper>
    </Stack>
  );
}
