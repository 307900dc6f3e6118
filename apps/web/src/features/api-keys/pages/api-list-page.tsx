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
import { useApiKeys } from '../api/api-keys';
import { IconKey, IconPlus } from '../components/icons';
import { KeyStatusBadge } from '../components/key-status-badge';

const when = (iso: string | null) => formatDateTimeOr(iso, 'Never');

export default function ApiListPage() {
  const keys = useApiKeys();
  const items = keys.data ?? [];
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <Group justify="space-between" p="md" wrap="wrap" gap="sm">
          <div>
            <Title order={2} size="h4">
              API keys
            </Title>
            <Text size="sm" c="dimmed">
              Send SMS and one-time codes from your own systems with{' '}
              <Code>Authorization: Bearer wren_live_…</Code>
            </Text>
          </div>
          <Group gap="sm">
            <Button variant="default" component={Link} to={paths.api.doc.getHref()}>
              API documentation
            </Button>
            <Button variant="default" component={Link} to={paths.smpp.list.getHref()}>
              SMPP accounts
            </Button>
            <Button leftSection={<IconPlus />} component={Link} to={paths.api.create.getHref()}>
              Create API key
            </Button>
          </Group>
        </Group>
        {keys.isPending && (
          <Stack p="md" gap="sm" aria-busy="true" aria-label="Loading API keys">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Stack>
        )}
        {keys.isError && (
          <Alert color="red" m="md" title="Could not load your API keys">
            <Group justify="space-between">
              <Text size="sm">{messageOf(keys.error)}</Text>
              <Button size="xs" variant="light" onClick={() => void keys.refetch()}>
                Try again
              </Button>
            </Group>
          </Alert>
        )}
        {keys.isSuccess && items.length === 0 && (
          <Stack align="center" gap="xs" p="xl">
            <IconKey size={32} />
            <Text fw={600}>No API keys yet</Text>
            <Text size="sm" c="dimmed" ta="center" maw={480}>
              Create a key for each system that sends through Wren, with only the scopes it needs. The secret
              is shown once, when you create it.
            </Text>
            <Button mt="sm" leftSection={<IconPlus />} component={Link} to={paths.api.create.getHref()}>
              Create API key
            </Button>
          </Stack>
        )}
        {items.length > 0 && (
          <ResponsiveTable minWidth={900} verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th ta="right">Requests (24 h)</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td data-label="Name">
                    <Anchor component={Link} to={paths.api.view.getHref(k.id)} fw={600}>
                      {k.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td data-label="Key">
                    <Code>{k.prefix}…</Code>
                  </Table.Td>
                  <Table.Td data-label="Scopes">
                    <Group gap={4}>
                      {k.scopes.map((s) => (
                        <Badge key={s} variant="outline" size="sm" tt="none">
                          {s}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td data-label="Last used">
                    {/* One block: on a phone's card the time and the address stay together. */}
                    <div>
                      <Text size="sm">{when(k.lastUsedAt)}</Text>
                      {k.lastUsedIp && (
                        <Text size="xs" c="dimmed">
                          from {k.lastUsedIp}
                        </Text>
                      )}
                    </div>
                  </Table.Td>
                  <Table.Td data-label="Requests (24 h)" ta="right">
                    {formatNumber(k.requests24h)}
                  </Table.Td>
                  <Table.Td data-label="Status">
                    <KeyStatusBadge status={k.status} />
                  </Table.Td>
                  <Table.Td data-label="">
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="subtle" component={Link} to={paths.api.report.getHref(k.id)}>
                        Report
                      </Button>
                      <Button size="xs" variant="light" component={Link} to={paths.api.view.getHref(k.id)}>
                        View
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
