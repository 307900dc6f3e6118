import {
  Alert,
  Anchor,
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
import { useSmppAccounts } from '../api/smpp-accounts';
import { IconPlug, IconPlus } from '../components/icons';
import { SmppServerEndpoints } from '../components/server-info';
import { SmppStatusBadge } from '../components/smpp-status-badge';

const when = (iso: string | null) => formatDateTimeOr(iso, translate('Never'));

/** The account's SMPP logins, with their live binds and the receipts waiting for them. */
export default function SmppListPage() {
  const t = useT();
  const accounts = useSmppAccounts();
  const items = accounts.data ?? [];
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <Group justify="space-between" p="md" wrap="wrap" gap="sm">
          <div>
            <Title order={2} size="h4">
              {t('SMPP accounts')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('Logins for systems that bind to Wren over SMPP 3.4 instead of calling the HTTP API.')}
            </Text>
          </div>
          <Group gap="sm">
            <Button variant="default" component={Link} to={paths.smpp.doc.getHref()}>
              {t('SMPP documentation')}
            </Button>
            <Button leftSection={<IconPlus />} component={Link} to={paths.smpp.create.getHref()}>
              {t('Create SMPP account')}
            </Button>
          </Group>
        </Group>
        <Stack px="md" pb="md" gap={4}>
          <SmppServerEndpoints />
        </Stack>
        {accounts.isPending && (
          <Stack p="md" gap="sm" aria-busy="true" aria-label={t('Loading SMPP accounts')}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Stack>
        )}
        {accounts.isError && (
          <Alert color="red" m="md" title={t('Could not load your SMPP accounts')}>
            <Group justify="space-between">
              <Text size="sm">{messageOf(accounts.error)}</Text>
              <Button size="xs" variant="light" onClick={() => void accounts.refetch()}>
                {t('Try again')}
              </Button>
            </Group>
          </Alert>
        )}
        {accounts.isSuccess && items.length === 0 && (
          <Stack align="center" gap="xs" p="xl" data-testid="smpp-empty">
            <IconPlug size={32} />
            <Text fw={600}>{t('No SMPP accounts yet')}</Text>
            <Text size="sm" c="dimmed" ta="center" maw={520}>
              {t(
                "An SMPP account is a login (system_id and password) for a platform, aggregator or older business system that speaks SMPP rather than HTTP. Its messages go through the same checks, prices and balance as the API's, and its delivery receipts wait here while it is not bound. The password is shown once, when you create it.",
              )}
            </Text>
            <Button mt="sm" leftSection={<IconPlus />} component={Link} to={paths.smpp.create.getHref()}>
              {t('Create SMPP account')}
            </Button>
          </Stack>
        )}
        {items.length > 0 && (
          <ResponsiveTable minWidth={900} verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('System ID')}</Table.Th>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Status')}</Table.Th>
                <Table.Th ta="right">{t('Live binds')}</Table.Th>
                <Table.Th ta="right">{t('Receipts waiting')}</Table.Th>
                <Table.Th ta="right">{t('Receipts expired')}</Table.Th>
                <Table.Th>{t('Last bind')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('Actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td data-label={t('System ID')}>
                    <Anchor component={Link} to={paths.smpp.view.getHref(a.id)} fw={600}>
                      <Code>{a.systemId}</Code>
                    </Anchor>
                  </Table.Td>
                  <Table.Td data-label={t('Name')}>{a.name}</Table.Td>
                  <Table.Td data-label={t('Status')}>
                    <SmppStatusBadge status={a.status} />
                  </Table.Td>
                  <Table.Td data-label={t('Live binds')} ta="right">
                    {a.liveBinds} / {a.maxBinds}
                  </Table.Td>
                  <Table.Td data-label={t('Receipts waiting')} ta="right">
                    {formatNumber(a.receiptsWaiting)}
                  </Table.Td>
                  <Table.Td data-label={t('Receipts expired')} ta="right">
                    <Text size="sm" span c={a.receiptsExpired > 0 ? 'red' : undefined}>
                      {formatNumber(a.receiptsExpired)}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label={t('Last bind')}>
                    <div>
                      <Text size="sm">{when(a.lastBindAt)}</Text>
                      {a.lastBindIp && (
                        <Text size="xs" c="dimmed">
                          {t('from {{ip}}', { ip: a.lastBindIp })}
                        </Text>
                      )}
                    </div>
                  </Table.Td>
                  <Table.Td data-label="">
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="light"
                        component={Link}
                        to={paths.smpp.view.getHref(a.id)}
                        aria-label={t('View {{systemId}}', { systemId: a.systemId })}
                      >
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
