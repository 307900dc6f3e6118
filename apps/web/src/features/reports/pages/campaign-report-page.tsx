import '@mantine/dates/styles.css';
import { useT } from '@/lib/i18n';
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
import { formatDateTime, formatInZone, formatRate } from '../format';
import { useKeysetRows } from '../api/use-keyset-rows';
import { ListLoadError } from '../components/list-load-error';
import { countLabel } from '../components/list-toolbar';
import { LoadMoreButton } from '../components/load-more-button';
import { formatNumber } from '@/lib/format';

const STATUS_LABELS: Record<(typeof CAMPAIGN_STATUSES)[number], string> = {
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  completed: 'Completed',
  canceled: 'Canceled',
};

/** yyyy-mm-dd (a picker's day) as the instant that day starts in the browser's zone. */
const dayStart = (day: string, plusDays = 0) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + plusDays).toISOString();
};

function When({ c }: { c: CampaignDto }) {
  const t = useT();
  return (
    <Stack gap={0}>
      <Text size="sm">{formatDateTime(c.createdAt)}</Text>
      {c.scheduledAt && (
        <Text size="xs" c="dimmed">
          {t('Scheduled {{time}}', { time: formatInZone(c.scheduledAt, c.timezone ?? 'UTC') })}
        </Text>
      )}
    </Stack>
  );
}

/** Campaigns newest first (keyset pages), with progress, outcomes, cost and actions. */
export default function CampaignReportPage() {
  const t = useT();
  const statusOptions = CAMPAIGN_STATUSES.map((s) => ({ value: s, label: t(STATUS_LABELS[s]) }));
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
            label={t('Search')}
            placeholder={t('Name or message text')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={260}
          />
          <Select
            label={t('Status')}
            placeholder={t('Any status')}
            data={statusOptions}
            value={status}
            onChange={setStatus}
            clearable
            w={180}
          />
          <DatePickerInput
            type="range"
            label={t('Created')}
            placeholder={t('Any date')}
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
              {t('Clear filters')}
            </Button>
          )}
        </Group>
      </Card>
      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" px="md" py="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {list.isPending
              ? t('Loading campaigns…')
              : countLabel(items.length, list.hasNextPage, '{{count}} campaign', '{{count}} campaigns')}
          </Text>
          <Group gap="xs">
            {list.isFetching && !list.isPending && <Loader size="xs" aria-label={t('Refreshing')} />}
            <Can permission="messages:send">
              <Button component={Link} to={paths.sms.bulk.getHref()} size="xs">
                {t('New bulk SMS')}
              </Button>
            </Can>
          </Group>
        </Group>
        {list.isError && !list.data ? (
          <ListLoadError
            title={t('Could not load the campaigns')}
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
              <Text fw={600}>
                {filtered ? t('No campaign matches these filters') : t('No campaigns yet')}
              </Text>
              <Text size="sm" c="dimmed" ta="center" maw={380}>
                {filtered
                  ? t('Try another status, date or search.')
                  : t('Send a bulk or personalised SMS and follow its delivery here.')}
              </Text>
              {!filtered && (
                <Can permission="messages:send">
                  <Group gap="xs" mt="xs">
                    <Button component={Link} to={paths.sms.bulk.getHref()} size="sm">
                      {t('Send bulk SMS')}
                    </Button>
                    <Button component={Link} to={paths.sms.personalised.getHref()} size="sm" variant="light">
                      {t('Send personalised SMS')}
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
                  <Table.Th>{t('Campaign')}</Table.Th>
                  <Table.Th>{t('Created')}</Table.Th>
                  <Table.Th ta="right">{t('Recipients')}</Table.Th>
                  <Table.Th w={180}>{t('Progress')}</Table.Th>
                  <Table.Th ta="right">{t('Delivered')}</Table.Th>
                  <Table.Th ta="right">{t('Failed')}</Table.Th>
                  <Table.Th ta="right">{t('Pending')}</Table.Th>
                  <Table.Th ta="right">{t('Cost')}</Table.Th>
                  <Table.Th ta="right">{t('Delivery rate')}</Table.Th>
                  <Table.Th>{t('Actions')}</Table.Th>
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
                            {c.kind === 'personalised' ? t('Personalised') : t('Bulk')}
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
                    <Table.Td ta="right">{formatRate(c.deliveryRate)}</Table.Td>
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
