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
import { useT } from '@/lib/i18n';
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
  const t = useT();
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {t('Service id')}
          </Text>
          <Code data-testid="otp-service-id">{s.id}</Code>
          <CopyButton value={s.id}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('Copied') : t('Copy')} withArrow>
                <Button size="compact-xs" variant="subtle" onClick={copy} leftSection={<IconCopy />}>
                  {copied ? t('Copied') : t('Copy id')}
                </Button>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Group gap="xs">
          <Button component={Link} to={paths.otp.test.getHref(s.id)} leftSection={<IconFlask />} size="sm">
            {t('Test')}
          </Button>
          <Button
            component={Link}
            to={paths.otp.edit.getHref(s.id)}
            variant="default"
            leftSection={<IconPencil />}
            size="sm"
          >
            {t('Edit')}
          </Button>
          <Button
            component={Link}
            to={paths.otp.docItem.getHref(s.id)}
            variant="default"
            leftSection={<IconBook />}
            size="sm"
          >
            {t('Docs')}
          </Button>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="md">
        <Setting label={t('Sender')} value={s.senderId || t('Account default')} />
        <Setting
          label={t('Code')}
          value={
            s.codeType === 'numeric'
              ? t('{{count}} digits', { count: s.codeLength })
              : t('{{count}} letters + digits', { count: s.codeLength })
          }
        />
        <Setting label={t('Lifetime')} value={t('{{count}} min', { count: s.ttlMinutes })} />
        <Setting label={t('Check attempts')} value={s.maxAttempts} />
        <Setting
          label={t('Per number')}
          value={t('{{limit}} / {{window}} min, {{cooldown}} s apart', {
            limit: s.sendLimit,
            window: s.sendWindowMinutes,
            cooldown: s.resendCooldownSeconds,
          })}
        />
        <Setting
          label={t('Countries')}
          value={s.allowedCountries.length ? s.allowedCountries.join(', ') : t('All')}
        />
        <Setting
          label={t('Pumping guard')}
          value={t('> {{max}} per {{range}} range in {{window}} min', {
            max: s.velocityMaxSends,
            range: 'x'.repeat(s.velocityRangeDigits),
            window: s.velocityWindowMinutes,
          })}
        />
        <Setting label={t('Sends (24 h)')} value={formatNumber(s.stats.sends24h)} />
        <Setting
          label={t('Verified (24 h)')}
          value={s.stats.sends24h ? formatPercent(s.stats.verificationRate24h) : '–'}
        />
        <Setting label={t('Blocked (24 h)')} value={formatNumber(s.stats.blocked24h)} />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="md">
        {t('Message:')} {s.template}
      </Text>
    </Card>
  );
}

function Charts({ id }: { id: string }) {
  const t = useT();
  const stats = useOtpStats(id);
  if (stats.isPending) return <Skeleton height={280} radius="md" />;
  if (stats.isError)
    return (
      <Alert color="red" variant="light" role="alert" title={t('The figures could not be loaded')}>
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
          {t('Sends and verifications per day')}
        </Title>
        <BarChart
          h={220}
          data={data}
          dataKey="day"
          withLegend
          series={[
            { name: 'Sends', color: 'blue.6', label: t('Sends') },
            { name: 'Verified', color: 'teal.6', label: t('Verified') },
            { name: 'Blocked', color: 'red.6', label: t('Blocked') },
          ]}
          tickLine="y"
          yAxisProps={{ allowDecimals: false }}
          data-testid="otp-chart-sends"
        />
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h5" mb="md">
          {t('Conversion per day')}
        </Title>
        <LineChart
          h={220}
          data={data}
          dataKey="day"
          series={[{ name: 'Conversion', color: 'grape.6', label: t('Verified / sent') }]}
          yAxisProps={{ domain: [0, 100] }}
          valueFormatter={(v) => formatPercent(v / 100)}
          curveType="monotone"
          withLegend
          tickLine="y"
        />
      </Card>
    </SimpleGrid>
  );
}

function Verifications({ id }: { id: string }) {
  const t = useT();
  const page = useOtpVerifications(id);
  const rows = page.data?.pages.flatMap((p) => p.items) ?? [];
  const blocked = page.data?.pages[0]?.blockedRanges ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('Recent verifications')}
        </Title>
        <Text size="xs" c="dimmed">
          {t('Updates live')}
        </Text>
      </Group>
      {blocked.length > 0 && (
        <Alert color="red" variant="light" title={t('Number ranges blocked by the SMS pumping guard')}>
          <Stack gap={4}>
            {blocked.map((b) => (
              <Text size="sm" key={b.range}>
                <Code>{b.range}</Code>{' '}
                {t('until {{until}}: {{reason}}', { until: formatDateTime(b.until), reason: b.reason })}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {page.isPending && <Skeleton height={160} radius="md" />}
      {page.isError && (
        <Alert color="red" variant="light" role="alert" title={t('The verifications could not be loaded')}>
          {messageOf(page.error)}
        </Alert>
      )}
      {page.isSuccess && rows.length === 0 && (
        <Paper withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center" size="sm">
            {t('No codes sent yet. Send one from the')}{' '}
            <Link to={paths.otp.test.getHref(id)}>{t('test page')}</Link> {t('or through the API.')}
          </Text>
        </Paper>
      )}
      {rows.length > 0 && (
        <Paper withBorder radius="md">
          <ResponsiveTable
            minWidth={860}
            verticalSpacing="xs"
            aria-label={t('Recent verifications')}
            data-testid="otp-verifications"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Sent')}</Table.Th>
                <Table.Th>{t('Number')}</Table.Th>
                <Table.Th>{t('Status')}</Table.Th>
                <Table.Th>{t('Attempts')}</Table.Th>
                <Table.Th>{t('SMS')}</Table.Th>
                <Table.Th>{t('Verified')}</Table.Th>
                <Table.Th>{t('Why blocked')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((v) => {
                const status = OTP_STATUS_LABEL[v.status];
                return (
                  <Table.Tr key={v.id} data-status={v.status}>
                    <Table.Td data-label={t('Sent')}>
                      {formatDateTime(v.createdAt, { seconds: true })}
                    </Table.Td>
                    <Table.Td data-label={t('Number')} ff="monospace">
                      {v.to}
                    </Table.Td>
                    <Table.Td data-label={t('Status')}>
                      <ToneBadge color={status.color}>{t(status.label)}</ToneBadge>
                    </Table.Td>
                    <Table.Td data-label={t('Attempts')}>
                      {v.status === 'blocked'
                        ? '–'
                        : t('{{attempts}} of {{max}}', { attempts: v.attempts, max: v.maxAttempts })}
                    </Table.Td>
                    <Table.Td data-label={t('SMS')} tt="capitalize">
                      {v.messageStatus ?? '–'}
                    </Table.Td>
                    <Table.Td data-label={t('Verified')}>
                      {v.approvedAt ? formatTime(v.approvedAt, { seconds: true }) : '–'}
                    </Table.Td>
                    <Table.Td data-label={t('Why blocked')}>
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
            {t('Show older')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

export default function OtpServiceViewPage() {
  const t = useT();
  const id = useParams().id ?? '';
  const service = useOtpService(id);
  useOtpLive(id);
  if (service.isPending)
    return (
      <Stack aria-busy="true" aria-label={t('Loading the OTP service')}>
        <Skeleton height={180} radius="md" />
        <Skeleton height={280} radius="md" />
      </Stack>
    );
  if (service.isError)
    return isMissing(service.error) ? (
      <ServiceNotFound />
    ) : (
      <Alert color="red" variant="light" role="alert" title={t('The service could not be loaded')}>
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
