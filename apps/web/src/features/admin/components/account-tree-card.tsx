import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminAccountDetail } from '@wren/contracts';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { rich } from './common';

/** Sub-accounts (issue 39 item 4): a child's reseller account, a parent's children. */
export function AccountTreeCard({ account }: { account: AdminAccountDetail }) {
  const t = useT();
  if (!account.parent && account.subAccounts.length === 0) return null;
  return (
    <Card withBorder padding="md" aria-label={t('Sub-accounts')}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {account.parent
            ? t('Parent account')
            : t('Sub-accounts ({{count}})', { count: account.subAccounts.length })}
        </Title>
        {account.parent && (
          <Text size="sm">
            {rich(t, 'A sub-account of {{parent}}, which moves its balance and sets its prices.', {
              parent: (
                <Anchor component={Link} to={paths.admin.account.getHref(account.parent.id)}>
                  {account.parent.name}
                </Anchor>
              ),
            })}
          </Text>
        )}
        {account.subAccounts.map((c) => (
          <Group key={c.id} justify="space-between" wrap="wrap">
            <Anchor component={Link} to={paths.admin.account.getHref(c.id)} size="sm">
              {c.name}
            </Anchor>
            <Group gap="xs">
              {c.lockedByParent && (
                <Badge color="red" variant="light" size="sm">
                  {t('Locked by parent')}
                </Badge>
              )}
              <Text size="sm">{formatMoney(c.balanceMinor, c.currency)}</Text>
            </Group>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
