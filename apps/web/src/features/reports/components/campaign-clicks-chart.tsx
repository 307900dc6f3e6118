import { BarChart } from '@mantine/charts';
import { Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DEFAULT_LOCALE, type CampaignClicks } from '@wren/contracts';
import { dayjs } from '@/lib/dayjs';
import { formatNumber } from '@/lib/format';
import { currentLocale, useT } from '@/lib/i18n';

const DEVICE_LABELS: Record<string, string> = {
  mobile: 'Mobile',
  desktop: 'Desktop',
  tablet: 'Tablet',
  other: 'Other',
};

/** A tracked campaign's clicks per hour (or day), with first clicks, and by device and country. */
export function CampaignClicksChart({
  clicks,
  zone,
  failed,
}: {
  clicks: CampaignClicks | undefined;
  zone: string;
  failed: boolean;
}) {
  const t = useT();
  const format = clicks?.bucket === 'day' ? 'D MMM' : 'D MMM, HH:mm';
  // English as before ("4 Dec, 14:00"); another language's own day and month names (Intl).
  const locale = currentLocale();
  const intl =
    locale === DEFAULT_LOCALE
      ? null
      : new Intl.DateTimeFormat(locale, {
          day: 'numeric',
          month: 'short',
          ...(clicks?.bucket === 'day' ? {} : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
          timeZone: zone,
        });
  const label = (at: string) => (intl ? intl.format(new Date(at)) : dayjs(at).tz(zone).format(format));
  const data = (clicks?.points ?? []).map((p) => ({
    at: label(p.at),
    Clicks: p.clicks,
    'First clicks': p.firstClicks,
  }));
  const countryNames = new Intl.DisplayNames([currentLocale()], { type: 'region' });
  return (
    <Card withBorder radius="md" p="lg" data-testid="campaign-clicks">
      <Title order={3} size="h5" mb="sm">
        {clicks?.bucket === 'day' ? t('Clicks per day') : t('Clicks per hour')}
      </Title>
      {failed ? (
        <Text size="sm" c="red">
          {t('The clicks could not be loaded; they are asked again every minute.')}
        </Text>
      ) : !clicks ? (
        <Center h={160}>
          <Loader size="sm" aria-label={t('Loading clicks')} />
        </Center>
      ) : data.length === 0 ? (
        <Center h={120}>
          <Text size="sm" c="dimmed">
            {t('No clicks yet. Link previews by chat apps are not counted.')}
          </Text>
        </Center>
      ) : (
        <Stack gap="md">
          <BarChart
            h={220}
            data={data}
            dataKey="at"
            series={[
              { name: 'Clicks', label: t('Clicks'), color: 'indigo.6' },
              { name: 'First clicks', label: t('First clicks'), color: 'teal.6' },
            ]}
            withLegend
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Breakdown
              title={t('By device')}
              rows={clicks.devices.map((d) => [
                DEVICE_LABELS[d.device] ? t(DEVICE_LABELS[d.device]) : d.device,
                d.clicks,
              ])}
            />
            <Breakdown
              title={t('By country')}
              rows={clicks.countries.map((c) => [
                c.country ? (countryNames.of(c.country) ?? c.country) : t('Unknown'),
                c.clicks,
              ])}
            />
          </SimpleGrid>
        </Stack>
      )}
    </Card>
  );
}

function Breakdown({ title, rows }: { title: string; rows: [string, number][] }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {rows.map(([label, n]) => (
        <Group key={label} justify="space-between" gap="xs">
          <Text size="sm">{label}</Text>
          <Text size="sm" fw={500}>
            {formatNumber(n)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
