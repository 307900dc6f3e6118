import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { formatMoney } from '@/lib/money';
import { useSubAccountUsage } from '../api/sub-accounts';
import { useT } from '@/lib/i18n';

const day = (d: Date) => d.toISOString().slice(0, 10);
const monthStart = () => {
  const now = new Date();
  return day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
};

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

/** The sub-account's messages by status, its spend and your margin for a period (UTC days). */
export function UsageCard({ id }: { id: string }) {
  const t = useT();
  const [from, setFrom] = useState(monthStart);
  const [to, setTo] = useState(() => day(new Date()));
  const [period, setPeriod] = useState({ from, to });
  const [error, setError] = useState<string | null>(null);
  const usage = useSubAccountUsage(id, period);
  const show = (e: React.FormEvent) => {
    e.preventDefault();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to))
      return setError(t('Enter both days as YYYY-MM-DD'));
    if (from > to) return setError(t('The first day must not be after the last'));
    setError(null);
    setPeriod({ from, to });
  };
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('Usage and margin')}
        </Title>
        <form onSubmit={show} noValidate aria-label={t('Period')}>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label={t('From')}
              type="date"
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              w={170}
            />
            <TextInput
              label={t('To')}
              type="date"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              w={170}
            />
            <Button type="submit" variant="default">
              {t('Show')}
            </Button>
          </Group>
        </form>
        {error && <Alert color="red">{error}</Alert>}
        {usage.isPending ? (
          <Loader size="sm" aria-label={t('Loading usage')} />
        ) : usage.isError ? (
          <Alert color="red">{usage.error.message}</Alert>
        ) : (
          <>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Figure label={t('Messages')} value={String(usage.data.messages)} />
              <Figure
                label={t('Their spend')}
                value={formatMoney(usage.data.spendMinor, usage.data.currency)}
              />
              <Figure
                label={t('At your prices')}
                value={formatMoney(usage.data.parentCostMinor, usage.data.currency)}
              />
              <Figure
                label={t('Your margin')}
                value={formatMoney(usage.data.marginMinor, usage.data.currency)}
              />
            </SimpleGrid>
            {usage.data.messages === 0 ? (
              <Text size="sm" c="dimmed">
                {t('No messages in this period.')}
              </Text>
            ) : (
              <Group gap="xs" aria-label={t('Messages by status')}>
                {Object.entries(usage.data.byStatus).map(([status, n]) => (
                  <Badge key={status} variant="light">
                    {status}: {n}
                  </Badge>
                ))}
              </Group>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
