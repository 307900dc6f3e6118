import { Group, Paper, Text, Title } from '@mantine/core';
import type { AdminAccountDetail } from '@wren/contracts';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { AccountStatusBadge, rich, When } from './common';

/** The account's name, status and creation, with its balance and rate plan on the right. */
export function AccountHeader({ account: a }: { account: AdminAccountDetail }) {
  const t = useT();
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Group gap="xs">
            <Title order={2} size="h3">
              {a.username ?? a.name}
            </Title>
            <AccountStatusBadge status={a.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {a.name} · {a.email} · {rich(t, 'created {{when}}', { when: <When at={a.createdAt} /> })}
          </Text>
        </div>
        <div style={{ textAlign: 'right' }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('Balance')}
          </Text>
          <Text
            size="xl"
            fw={700}
            c={a.balanceMinor < 0 ? 'var(--mantine-color-red-text)' : undefined}
            data-testid="account-balance"
          >
            {formatMoney(a.balanceMinor, a.currency)}
          </Text>
          <Text size="xs" c="dimmed">
            {a.ratePlanName}
            {a.ratePlanId === null ? ` (${t('default plan')})` : ''}
          </Text>
        </div>
      </Group>
    </Paper>
  );
}
