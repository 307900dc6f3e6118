import { AreaChart } from '@mantine/charts';
import { useT } from '@/lib/i18n';
import { formatTime } from '@/lib/format';
import { Card, Center, Text, Title } from '@mantine/core';
import type { CampaignTimeline } from '@wren/contracts';

/** Sent and delivered messages per minute of the campaign. */
export function CampaignMinuteChart({ points }: { points: CampaignTimeline }) {
  const t = useT();
  const minutes = points.map((p) => ({
    minute: formatTime(p.minute),
    Sent: p.sent,
    Delivered: p.delivered,
  }));
  return (
    <Card withBorder radius="md" p="lg" h="100%">
      <Title order={3} size="h5" mb="sm">
        {t('Sent and delivered per minute')}
      </Title>
      {minutes.length === 0 ? (
        <Center h={200}>
          <Text size="sm" c="dimmed">
            {t('Nothing sent yet.')}
          </Text>
        </Center>
      ) : (
        <AreaChart
          h={220}
          data={minutes}
          dataKey="minute"
          series={[
            { name: 'Sent', label: t('Sent'), color: 'blue.6' },
            { name: 'Delivered', label: t('Delivered'), color: 'teal.6' },
          ]}
          curveType="monotone"
          withLegend
        />
      )}
    </Card>
  );
}
