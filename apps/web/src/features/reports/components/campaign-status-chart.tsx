import { DonutChart } from '@mantine/charts';
import { useT } from '@/lib/i18n';
import { Card, Center, ColorSwatch, Group, Stack, Text, Title } from '@mantine/core';
import type { CampaignDto } from '@wren/contracts';
import { statusSlices } from '../campaign-figures';
import { formatNumber } from '@/lib/format';

/** A donut of the campaign's messages by status, with its legend. */
export function CampaignStatusChart({ c }: { c: CampaignDto }) {
  const t = useT();
  const chartData = statusSlices(c);
  return (
    <Card withBorder radius="md" p="lg" h="100%">
      <Title order={3} size="h5" mb="sm">
        {t('Status breakdown')}
      </Title>
      {chartData.length === 0 ? (
        <Center h={200}>
          <Text size="sm" c="dimmed">
            {c.status === 'scheduled'
              ? t('Nothing sent yet: the campaign is scheduled.')
              : t('No messages yet.')}
          </Text>
        </Center>
      ) : (
        <Group align="center" wrap="nowrap" gap="lg">
          <DonutChart
            size={180}
            thickness={28}
            data={chartData.map((d) => ({ name: d.status, value: d.count, color: d.color }))}
            withTooltip
            tooltipDataSource="segment"
            data-testid="status-chart"
          />
          <Stack gap={4}>
            {chartData.map((d) => (
              <Group key={d.status} gap={6} wrap="nowrap">
                <ColorSwatch color={`var(--mantine-color-${d.color.replace('.', '-')})`} size={12} />
                <Text size="sm">
                  {d.status}: <b>{formatNumber(d.count)}</b>
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      )}
    </Card>
  );
}
