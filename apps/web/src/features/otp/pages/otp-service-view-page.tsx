import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import {
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import type { OtpServiceDto } from '@wren/contracts';
import { Link, useParams } from 'react-router';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { messageOf } from '@/lib/http/http-error';
import { useOtpService, useOtpStats, useOtpVerifications } from '../api/otp-services';
import { useOtpLive } from '../api/use-otp-live';
import { IconBook, IconCopy, IconFlask, IconPencil } from '../components/icons';
import { isMissing, ServiceNotFound } from '../components/service-not-found';
import { ToneBadge } from '../components/tone-badge';
import { formatPercent, OTP_STATUS_LABEL } from '../otp-format';
import { formatDateTime, formatDay, formatNumber, formatTime } from '@/lib/format';

function Setting({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </div>
  );
}

function Settings({ s }: { s: OtpServiceDto }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            Service id
          </Text>
          <Code data-testid="otp-service-id">{s.id}</Code>
          <CopyButton value={s.id}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                <Button size="compact-xs" variant="subtle" onClick={copy} leftSection={<IconCopy />}>
                  {copied ? 'Copied' : 'Copy id'}
                </Button>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Group gap="xs">
          <Button component={Link} to={paths.otp.test.getHref(s.id)} leftSection={<IconFlask />} size="sm">
            Test
          </Button>
          <Button
            component={Link}
            to={paths.otp.edit.getHref(s.id)}
            variant="default"
            leftSection={<IconPencil />}
            size="sm"
          >
            Edit
          </Button>
          <Button
            component={Link}
            to={paths.otp.docItem.getHref(s.id)}
            variant="default"
            leftSection={<IconBook />}
            size="sm"
          >
            Docs
          </Button>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="md">
        <Setting label="Sender" value={s.senderId || 'Account default'} />
        <Setting
          label="Code"
          value={`${s.codeLength} ${s.codeType === 'numeric' ? 'digits' : 'letters + digits'}`}
        />
        <Setting label="Lifetime" value={`${s.ttlMinutes} min`} />
        <Setting label="Check attempts" value={s.maxAttempts} />
        <Setting
          label="Per number"
          value={`${s.sendLimit} / ${s.sendWindowMinutes} min, ${s.resendCooldownSeconds} s apart`}
        />
        <Setting
          label="Countries"
          value={s.allowedCountries.length ? s.allowedCountries.join(', ') : 'All'}
        />
        <Setting
          label="Pumping guard"
          value={`> ${s.velocityMaxSends} per ${'x'.repeat(s.velocityRangeDigits)} range in ${s.velocityWindowMinutes} min`}
        />
        <Setting label="Sends (24 h)" value={formatNumber(s.stats.sends24h)} />
        <Setting
          label="Verified (24 h)"
          value={s.stats.sends24h ? formatPercent(s.stats.verificationRate24h) : '–'}
        />
        <Setting label="Blocked (24 h)" value={formatNumber(s.stats.blocked24h)} />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="md">
        Message: {s.template}
      </Text>
    </Card>
  );
}

function Charts({ id }: { id: string }) {
  const stats = useOtpStats(id);
  if (stats.isPending) return <Skeleton height={280} radius="md" />;
  if (stats.isError)
    return (
      <Alert color="red" variant="light" role="alert" title="The figures could not be loaded">
        {messageOf(stats.error)}
      </Alert>
    );
  const data = stats.data.days.map((d) => ({
    day: formatDay(d.date),
    Sends: d.sends,
    Verified: d.approved,
    Blocked: d.blocked,
    // A day without sends has no conversion (a gap), not 0 %.
    Conversion: d.sends ? Math.round(d.conversion * 1000) / 10 : null,
  }));
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h5" mb="md">
          Sends and verifications per day
        </Title>
        <BarChart
          h={220}
          data={data}
          dataKey="day"
          withLegend
          series={[
            { name: 'Sends', color: 'blue.6' },
            { name: 'Verified', color: 'teal.6' },
            { name: 'Blocked', color: 'red.6' },
          ]}
          tickLine="y"
          yAxisProps={{ allowDecimals: false }}
          data-testid="otp-chart-sends"
        />
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h5" mb="md">
          Conversion per day
        </Title>
        <LineChart
          h={220}
          data={data}
          dataKey="day"
          series={[{ name: 'Conversion', color: 'grape.6', label: 'Verified / sent' }]}
          yAxisProps={{ domain: [0, 100] }}
          valueFormatter={(v) => `${v}%`}
          curveType="monotone"
          withLegend
          tickLine="y"
        />
      </Card>
    </SimpleGrid>
  );
}

function Verifications({ id }: { id: string }) {
  const page = useOtpVerifications(id);
  const rows = page.data?.pages.flatMap((p) => p.items) ?? [];
  const blocked = page.data?.pages[0]?.blockedRanges ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Recent verifications
        </Title>
        <Text size="xs" c="dimmed">
          Updates live
        </Text>
      </Group>
      {blocked.length > 0 && (
        <Alert color="red" variant="light" title="Number ranges blocked by the SMS pumping guard">
          <Stack gap={4}>
            {blocked.map((b) => (
              <Text size="sm" key={b.range}>
                <Code>{b.range}</Code> until {formatDateTime(b.until)}: {b.reason}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {page.isPending && <Skeleton height={160} radius="md" />}
      {page.isError && (
        <Alert color="red" variant="light" role="alert" title="The verifications could not be loaded">
          {messageOf(page.error)}
        </Alert>
      )}
      {page.isSuccess && rows.length === 0 && (
        <Paper withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center" size="sm">
            No codes sent yet. Send one from the <Link to={paths.otp.test.getHref(id)}>test page</Link> or
            through the API.
          </Text>
        </Paper>
      )}
      {rows.length > 0 && (
        <Paper withBorder radius="md">
          <ResponsiveTable
            minWidth={860}
            verticalSpacing="xs"
            aria-label="Recent verifications"
            data-testid="otp-verifications"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Sent</Table.Th>
                <Table.Th>Number</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>SMS</Table.Th>
                <Table.Th>Verified</Table.Th>
                <Table.Th>Why blocked</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((v) => {
                const status = OTP_STATUS_LABEL[v.status];
                return (
                  <Table.Tr key={v.id} data-status={v.status}>
                    <Table.Td data-label="Sent">{formatDateTime(v.createdAt, { seconds: true })}</Table.Td>
                    <Table.Td data-label="Number" ff="monospace">
                      {v.to}
                    </Table.Td>
                    <Table.Td data-label="Status">
                      <ToneBadge color={status.color}>{status.label}</ToneBadge>
                    </Table.Td>
                    <Table.Td data-label="Attempts">
                      {v.status === 'blocked' ? '–' : `${v.attempts} of ${v.maxAttempts}`}
                    </Table.Td>
                    <Table.Td data-label="SMS" tt="capitalize">
                      {v.messageStatus ?? '–'}
                    </Table.Td>
                    <Table.Td data-label="Verified">
                      {v.approvedAt ? formatTime(v.approvedAt, { seconds: true }) : '–'}
                    </Table.Td>
                    <Table.Td data-label="Why blocked">
                      <Text size="sm" c={v.blockedReason ? 'red.8' : 'dimmed'}>
                        {v.blockedReason ?? '–'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </ResponsiveTable>
        </Paper>
      )}
      {page.hasNextPage && (
        <Group justify="center">
          <Button
            variant="default"
            loading={page.isFetchingNextPage}
            onClick={() => void page.fetchNextPage()}
          >
            Show older
          </Button>
        </Group>
      )}
    </Stack>
  );
}

export default function OtpServiceViewPage() {
  const id = useParams().id ?? '';
  const service = useOtpService(id);
  useOtpLive(id);
  if (service.isPending)
    return (
      <Stack aria-busy="true" aria-label="Loading the OTP service">
        <Skeleton height={180} radius="md" />
        <Skeleton height={280} radius="md" />
      </Stack>
    );
  if (service.isError)
    return isMissing(service.error) ? (
      <ServiceNotFound />
    ) : (
      <Alert color="red" variant="light" role="alert" title="The service could not be loaded">
        {messageOf(service.error)}
      </Alert>
    );
  return (
    <Stack gap="lg">
      <Title order={2} size="h3">
        {service.data.name}
      </Title>
      <Settings s={service.data} />
      <Charts id={id} />
      <Verifications id={id} />
    </Stack>
  );
}
