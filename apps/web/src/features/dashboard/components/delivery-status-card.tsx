import { useState } from 'react';
import {
  Box,
  Card,
  Center,
  ColorSwatch,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { DELIVERY_PERIODS, type DeliveryPeriod, type DeliveryStatusSummary } from '@wren/contracts';
import { DonutSvg } from './donut-svg';
import { formatCount, PERIOD_LABELS, statusSlices, totalOf } from '../format';
import { translate, useT } from '@/lib/i18n';

const isPeriod = (value: string): value is DeliveryPeriod =>
  (DELIVERY_PERIODS as readonly string[]).includes(value);

const emptyText = (period: DeliveryPeriod) =>
  period === 'today'
    ? translate('No messages today yet')
    : translate('No messages in the last {{period}}', { period: translate(PERIOD_LABELS[period]) });

/** Messages of today, 7 days or 30 days, counted by their current status. */
export function DeliveryStatusCard({ data }: { data: DeliveryStatusSummary | undefined }) {
  const t = useT();
  const [period, setPeriod] = useState<DeliveryPeriod>('today');
  const counts = data?.periods[period];
  const slices = counts ? statusSlices(counts) : [];
  const total = counts ? totalOf(counts) : 0;

  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid="delivery-status">
      <Group justify="space-between" align="center" gap="sm" mb="md">
        <Title order={2} size="h4">
          {t('Delivery status')}
        </Title>
        <SegmentedControl
          size="xs"
          data={DELIVERY_PERIODS.map((value) => ({ value, label: t(PERIOD_LABELS[value]) }))}
          value={period}
          onChange={(value) => isPeriod(value) && setPeriod(value)}
          aria-label={t('Period')}
        />
      </Group>
      {!counts ? (
        <Group gap="xl" wrap="nowrap">
          <Skeleton circle height={150} />
          <Stack gap="xs" flex={1}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={14} />
            ))}
          </Stack>
        </Group>
      ) : total === 0 ? (
        <Center mih={150}>
          <Text c="dimmed" size="sm">
            {emptyText(period)}
          </Text>
        </Center>
      ) : (
        <Group gap="lg" wrap="wrap" align="center" justify="center">
          <Box role="img" aria-label={t('{{count}} messages by status', { count: formatCount(total) })}>
            <DonutSvg
              data={slices.map((s) => ({ name: s.label, value: s.count, color: s.color }))}
              label={formatCount(total)}
              size={150}
              thickness={22}
            />
          </Box>
          <Stack gap={8} flex={1} miw={150} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {slices.map((s) => (
              <Group
                key={s.status}
                component="li"
                justify="space-between"
                wrap="nowrap"
                gap="xs"
                data-status={s.status}
              >
                <Group gap={8} wrap="nowrap" miw={0}>
                  <ColorSwatch color={`var(--mantine-color-${s.color.replace('.', '-')})`} size={12} />
                  <Text size="sm" truncate>
                    {s.label}
                  </Text>
                </Group>
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" fw={600} data-testid={`status-count-${s.status}`}>
                    {formatCount(s.count)}
                  </Text>
                  <Text size="xs" c="dimmed" w={36} ta="right">
                    {Math.round((s.count / total) * 100)}%
                  </Text>
                </Group>
              </Group>
            ))}
          </Stack>
        </Group>
      )}
    </Card>
  );
}
