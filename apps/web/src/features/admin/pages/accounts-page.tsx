import { useState } from 'react';
import { Anchor, Paper, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from 'react-router';
import { IconSearch } from '@/components/icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { useAccounts } from '../api/admin-api';
import {
  AccountStatusBadge,
  EmptyBlock,
  ErrorBlock,
  LoadingBlock,
  LoadMore,
  SectionHeader,
  When,
} from '../components/common';

export default function AccountsPage() {
  const t = useT();
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<'' | 'active' | 'locked'>('');
  const list = useAccounts(query, status);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <SectionHeader
          title={t('Accounts')}
          hint={t('Every customer account: balance, rate plan and status')}
        >
          <TextInput
            aria-label={t('Search accounts')}
            placeholder={t('Username, email or phone')}
            leftSection={<IconSearch />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={260}
          />
          <SegmentedControl
            aria-label={t('Status')}
            value={status}
            onChange={(v) => setStatus(v)}
            data={[
              { value: '', label: t('All') },
              { value: 'active', label: t('Active') },
              { value: 'locked', label: t('Locked') },
            ]}
          />
        </SectionHeader>
        {list.isPending && <LoadingBlock label={t('Loading accounts…')} />}
        {list.isError && <ErrorBlock message={messageOf(list.error)} onRetry={() => void list.refetch()} />}
        {list.isSuccess && items.length === 0 && (
          <EmptyBlock title={query || status ? t('No account matches') : t('No accounts yet')}>
            {query
              ? t('Try part of a username, an email address or the last digits of a phone number.')
              : null}
          </EmptyBlock>
        )}
        {items.length > 0 && (
          <ResponsiveTable minWidth={900} highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Account')}</Table.Th>
                <Table.Th>{t('Email / phone')}</Table.Th>
                <Table.Th ta="right">{t('Balance')}</Table.Th>
                <Table.Th>{t('Rate plan')}</Table.Th>
                <Table.Th>{t('Status')}</Table.Th>
                <Table.Th>{t('Created')}</Table.Th>
                <Table.Th>{t('Last activity')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td data-label={t('Account')}>
                    <Anchor component={Link} to={paths.admin.account.getHref(a.id)} fw={600}>
                      {a.username ?? a.name}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {a.name}
                    </Text>
                    {a.parent && (
                      <Text size="xs" c="dimmed">
                        {t('Sub-account of {{name}}', { name: a.parent.name })}
                      </Text>
                    )}
                    {a.subAccountCount > 0 && (
                      <Text size="xs" c="dimmed">
                        {a.subAccountCount === 1
                          ? t('{{count}} sub-account', { count: a.subAccountCount })
                          : t('{{count}} sub-accounts', { count: a.subAccountCount })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Email / phone')}>
                    {/* One block: as a card (390 px) the cell's children sit side by side, and the
                        email ran over the phone number (issue 47, defect 4). */}
                    <div>
                      <Text size="sm">{a.email}</Text>
                      <Text size="xs" c="dimmed">
                        <span dir="ltr">{a.phone}</span>
                      </Text>
                    </div>
                  </Table.Td>
                  <Table.Td
                    data-label={t('Balance')}
                    ta="right"
                    c={a.balanceMinor < 0 ? 'var(--mantine-color-red-text)' : undefined}
                  >
                    {formatMoney(a.balanceMinor, a.currency)}
                  </Table.Td>
                  <Table.Td data-label={t('Rate plan')}>
                    {a.ratePlanName}
                    {a.ratePlanId === null && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        {t('(default)')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Status')}>
                    <AccountStatusBadge status={a.status} />
                  </Table.Td>
                  <Table.Td data-label={t('Created')}>
                    <When at={a.createdAt} />
                  </Table.Td>
                  <Table.Td data-label={t('Last activity')}>
                    <When at={a.lastActivityAt} empty={t('Never')} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        )}
        <LoadMore
          hasMore={!!list.hasNextPage}
          loading={list.isFetchingNextPage}
          onMore={() => void list.fetchNextPage()}
          shown={items.length}
        />
      </Paper>
    </Stack>
  );
}
