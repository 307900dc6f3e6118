import { useState } from 'react';
import { Anchor, Button, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useSearchParams } from 'react-router';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useAudit, type AuditFilters } from '../api/admin-api';
import { EmptyBlock, ErrorBlock, LoadingBlock, LoadMore, SectionHeader, When } from '../components/common';

/** The kinds to filter by; each label is English text and a key, shown through `t`. */
const KINDS = [
  { value: '', label: 'Everything' },
  { value: 'auth', label: 'Sign-ins and security' },
  { value: 'auth.login', label: 'Sign-ins' },
  { value: 'auth.login_failed', label: 'Failed sign-ins' },
  { value: 'auth.locked', label: 'Lockouts' },
  { value: 'admin', label: 'Operator actions' },
  { value: 'admin.credit', label: 'Credits' },
  { value: 'admin.debit', label: 'Debits' },
  { value: 'admin.role_changed', label: 'Role changes' },
  { value: 'admin.export', label: 'Exports' },
  { value: 'sender_id', label: 'Sender IDs' },
  { value: 'api_key', label: 'API keys' },
];

/** A date input's yyyy-mm-dd as the start of that day in the browser's zone, ISO. */
const dayStart = (d: string, plusDays = 0) => {
  if (!d) return '';
  const t = new Date(`${d}T00:00:00`);
  t.setDate(t.getDate() + plusDays);
  return t.toISOString();
};

export default function AuditPage() {
  const t = useT();
  const [params] = useSearchParams();
  const [kind, setKind] = useState('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [debouncedActor] = useDebouncedValue(actor.trim(), 300);
  const filters: AuditFilters = {
    kind,
    actor: debouncedActor,
    accountId: params.get('accountId') ?? '',
    from: dayStart(from),
    to: dayStart(to, 1),
  };
  const log = useAudit(filters);
  const items = log.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = !!(kind || debouncedActor || from || to || filters.accountId);

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <SectionHeader
          title={t('Audit log')}
          hint={t('Append-only: who did what to which resource, when and from where')}
        />
        <Group px="md" pb="md" gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('Kind')}
            data={KINDS.map((k) => ({ value: k.value, label: t(k.label) }))}
            value={kind}
            onChange={(v) => setKind(v ?? '')}
            allowDeselect={false}
            w={220}
          />
          <TextInput
            label={t('Actor (username)')}
            placeholder={t('Any')}
            value={actor}
            onChange={(e) => setActor(e.currentTarget.value)}
            w={180}
          />
          <TextInput
            type="date"
            label={t('From')}
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
          />
          <TextInput type="date" label={t('To')} value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          {filtered && (
            <Button
              variant="subtle"
              onClick={() => {
                setKind('');
                setActor('');
                setFrom('');
                setTo('');
              }}
            >
              {t('Clear filters')}
            </Button>
          )}
        </Group>
        {log.isPending && <LoadingBlock label={t('Loading the audit log…')} />}
        {log.isError && <ErrorBlock message={messageOf(log.error)} onRetry={() => void log.refetch()} />}
        {log.isSuccess && items.length === 0 && (
          <EmptyBlock title={filtered ? t('Nothing matches these filters') : t('Nothing recorded yet')} />
        )}
        {items.length > 0 && (
          <ResponsiveTable minWidth={960} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('When')}</Table.Th>
                <Table.Th>{t('What')}</Table.Th>
                <Table.Th>{t('Details')}</Table.Th>
                <Table.Th>{t('Who')}</Table.Th>
                <Table.Th>{t('Account')}</Table.Th>
                <Table.Th>{t('IP')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td data-label={t('When')} style={{ whiteSpace: 'nowrap' }}>
                    <When at={e.createdAt} />
                  </Table.Td>
                  <Table.Td data-label={t('What')}>
                    <Text
                      size="xs"
                      ff="monospace"
                      fw={600}

                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {e.kind}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label={t('Details')}>
                    <Text size="sm">{e.message}</Text>
                    {e.resourceType && (
                      <Text size="xs" c="dimmed">
                        {e.resourceType} {e.resourceId?.slice(0, 36)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Who')}>
                    {e.actorUsername ?? (
                      <Text span c="dimmed" size="sm">
                        {t('system')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Account')}>
                    {e.accountId ? (
                      <Anchor component={Link} to={paths.admin.account.getHref(e.accountId)} size="sm">
                        {e.accountName}
                      </Anchor>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('IP')} ff="monospace" fz="xs">
                    {e.ip ?? '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        )}
        <LoadMore
          hasMore={!!log.hasNextPage}
          loading={log.isFetchingNextPage}
          onMore={() => void log.fetchNextPage()}
          shown={items.length}
        />
      </Paper>
    </Stack>
  );
}
