import '@mantine/dates/styles.css';
import { Can } from '@/components/can';
import { useMemo, useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  ThemeIcon,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CAMPAIGN_STATUSES, type CampaignDto } from '@wren/contracts';
import { IconChart, IconSearch } from '@/components/icons';
import { paths } from '@/config/paths';
import { formatMoney } from '@/lib/money';
import {
  CampaignActions,
  campaignKeys,
  CampaignProgress,
  CampaignStatusBadge,
  useBulkSmsPushes,
  useCampaigns,
} from '@/features/campaigns';
import { formatDateTime, formatInZone } from '../format';
import { useKeysetRows } from '../api/use-keyset-rows';
import { ListLoadError } from '../components/list-load-error';
import { countLabel } from '../components/list-toolbar';
import { LoadMoreButton } from '../components/load-more-button';
import { formatNumber } from '@/lib/format';

const STATUS_OPTIONS = CAMPAIGN_STATUSES.map((s) => ({
  value: s,
  label: s.charAt(0).toUpperCase() + s.slice(1),
}));

/** yyyy-mm-dd (a picker's day) as the instant that day starts in the browser's zone. */
const dayStart = (day: string, plusDays = 0) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + plusDays).toISOString();
};

function When({ c }: { c: CampaignDto }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{formatDateTime(c.createdAt)}</Text>
      {c.scheduledAt && (
        <Text size="xs" c="dimmed">
          Scheduled {formatInZone(c.scheduledAt, c.timezone ?? 'UTC')}
        </Text>
      )}
    </Stack>
  );
}

/** Campaigns newest first (keyset pages), with progress, outcomes, cost and actions. */
export default function CampaignReportPage() {
  const [status, setStatus] = useState<string | null>(null);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const filters = useMemo(
    () => ({
      status: status ?? undefined,
      from: range[0] ? dayStart(range[0]) : undefined,
      to: range[1] ? dayStart(range[1], 1) : undefined,
      q: q || undefined,
    }),
    [status, range, q],
  );
  const list = useCampaigns(filters);
  const queryClient = useQueryClient();
  // Live: a BulkSmsUpdated push refreshes the list's figures (no polling).
  useBulkSmsPushes(() => void queryClient.invalidateQueries({ queryKey: [...campaignKeys.all, 'list'] }));
  const items = useKeysetRows(list.data);
  const filtered = Boolean(status || range[0] || range[1] || q);

  return (
    <Stack>
      <Card withBorder radius="md" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="Name or message text"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={260}
          />
          <Select
            label="Status"
            placeholder="Any status"
            data={STATUS_OPTIONS}
            value={status}
            onChange={setStatus}
            clearable
            w={180}
          />
          <DatePickerInput
            type="range"
            label="Created"
            placeholder="Any date"
            value={range}
            onChange={(v) => setRange(v)}
            clearable
            w={260}
            popoverProps={{ withinPortal: true }}
          />
          {filtered && (
            <Button
              variant="subtle"
              onClick={() => {
                setStatus(null);
                setRange([null, null]);
                setSearch('');
              }}
            >
              Clear filters
            </Button>
          )}
        </Group>
      </Card>
      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" px="md" py="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {list.isPending
              ? 'Loading campaigns…'
              : countLabel(items.length, list.hasNextPage, 'campaign', 'campaigns')}
          </Text>
          <Group gap="xs">
            {list.isFetching && !list.isPending && <Loader size="xs" aria-label="Refreshing" />}
            <Can permission="messages:send">
              <Button component={Link} to={paths.sms.bulk.getHref()} size="xs">
                New bulk SMS
              </Button>
            </Can>
          </Group>
        </Group>
        {list.isError && !list.data ? (
          <ListLoadError
            title="Could not load the campaigns"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        ) : list.isPending ? (
          <Stack p="md" gap="sm">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={36} />
            ))}
          </Stack>
        ) : items.length === 0 ? (
          <Center p="xl">
            <Stack align="center" gap="xs">
              <ThemeIcon size={48} radius="xl" variant="light">
                <IconChart size={24} />
              </ThemeIcon>
              <Text fw={600}>{filtered ? 'No campaign matches these filters' : 'No campaigns yet'}</Text>
              <Text size="sm" c="dimmed" ta="center" maw={380}>
                {filtered
                  ? 'Try another status, date or search.'
                  : 'Send a bulk or personalised SMS and follow its delivery here.'}
              </Text>
              {!filtered && (
                <Can permission="messages:send">
                  <Group gap="xs" mt="xs">
                    <Button component={Link} to={paths.sms.bulk.getHref()} size="sm">
                      Send bulk SMS
                    </Button>
                    <Button component={Link} to={paths.sms.personalised.getHref()} size="sm" variant="light">
                      Send personalised SMS
                    </Button>
                  </Group>
                </Can>
              )}
            </Stack>
          </Center>
        ) : (
          <Table.ScrollContainer minWidth={1000}>
            <Table verticalSpacing="sm" highlightOnHover data-testid="campaign-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Campaign</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th ta="right">Recipients</Table.Th>
                  <Table.Th w={180}>Progress</Table.Th>
                  <Table.Th ta="right">Delivered</Table.Th>
                  <Table.Th ta="right">Failed</Table.Th>
                  <Table.Th ta="right">Pending</Table.Th>
                  <Table.Th ta="right">Cost</Table.Th>
                  <Table.Th ta="right">Delivery rate</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Stack gap={2}>
                        <Anchor
                          component={Link}
                          to={paths.reports.campaignDetail.getHref(c.id)}
                          fw={600}
                          size="sm"
                        >
                          {c.name}
                        </Anchor>
                        <Group gap={4}>
                          <CampaignStatusBadge status={c.status} />
                          <Badge variant="outline" color="gray" size="sm">
                            {c.kind === 'personalised' ? 'Personalised' : 'Bulk'}
                          </Badge>
                        </Group>
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <When c={c} />
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(c.recipients)}</Table.Td>
                    <Table.Td>
                      <CampaignProgress c={c} />
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(c.delivered)}</Table.Td>
                    <Table.Td ta="right">{formatNumber(c.failed)}</Table.Td>
                    <Table.Td ta="right">{formatNumber(c.pending)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(c.costMinor - c.refundedMinor, c.currency)}</Table.Td>
                    <Table.Td ta="right">{(c.deliveryRate * 100).toFixed(1)}%</Table.Td>
                    <Table.Td>
                      <CampaignActions c={c} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <LoadMoreButton query={list} />
      </Card>
    </Stack>
  );
}
