import { useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from 'react-router';
import type { NumberDto } from '@wren/contracts';
import { ConfirmDeleteModal, useModalTarget } from '@/components/confirm-delete-modal';
import { FormAlert } from '@/components/form-alert';
import { IconPlus } from '@/components/icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { useAccounts } from '../api/admin-api';
import { useAssignNumber, useNumbers, useRemoveNumber } from '../api/numbers-api';
import { EmptyBlock, ErrorBlock, LoadingBlock, LoadMore, SectionHeader } from '../components/common';
import { NumberFormModal } from '../components/number-form-modal';

type Status = 'all' | 'free' | 'assigned';

/**
 * Admin → Numbers (issue 40 item 0): the inventory of long and short codes, each with its country,
 * connection and monthly price; assign one to an account (its first month is charged at once, and it
 * becomes that account's sender), release it, edit or remove it. Every change is audited.
 */
export default function NumbersPage() {
  const t = useT();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<Status>('all');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const list = useNumbers(debounced, status);
  const editing = useModalTarget<{ number: NumberDto | null }>();
  const assigning = useModalTarget<NumberDto>();
  const releasing = useModalTarget<NumberDto>();
  const removing = useModalTarget<NumberDto>();
  const remove = useRemoveNumber();
  const assign = useAssignNumber();
  const [dialogError, setDialogError] = useState<string | null>(null);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const currency = list.data?.pages[0]?.currency ?? 'USD';

  const openDialog = (target: NumberDto, dialog: 'assign' | 'release' | 'remove') => {
    setDialogError(null);
    ({ assign: assigning, release: releasing, remove: removing })[dialog].open(target);
  };

  const release = async () => {
    const n = releasing.target;
    if (!n) return;
    try {
      await assign.mutateAsync({ id: n.id, accountId: null });
      toast.success(t('Released {{number}}.', { number: n.number }));
      releasing.close();
    } catch (e) {
      setDialogError(messageOf(e));
    }
  };

  const confirmRemove = async () => {
    const n = removing.target;
    if (!n) return;
    try {
      await remove.mutateAsync(n.id);
      toast.success(t('Removed {{number}} from the inventory.', { number: n.number }));
      removing.close();
    } catch (e) {
      setDialogError(messageOf(e));
    }
  };

  const kindLabel = (k: NumberDto['kind']) => (k === 'long' ? t('Long code') : t('Short code'));

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <SectionHeader
          title={t('Numbers')}
          hint={t(
            'Long and short codes to assign to accounts: each is its account’s sender and receives its replies',
          )}
        >
          <Button leftSection={<IconPlus />} onClick={() => editing.open({ number: null })}>
            {t('Add number')}
          </Button>
        </SectionHeader>
        <Group px="md" pb="md" gap="sm" wrap="wrap">
          <TextInput
            aria-label={t('Search numbers')}
            placeholder={t('Number, country or account')}
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
          <SegmentedControl
            aria-label={t('Show')}
            value={status}
            onChange={(v) => setStatus(v)}
            data={[
              { value: 'all', label: t('All') },
              { value: 'free', label: t('Free') },
              { value: 'assigned', label: t('Assigned') },
            ]}
          />
        </Group>
        {list.isPending && <LoadingBlock label={t('Loading numbers…')} />}
        {list.isError && <ErrorBlock message={messageOf(list.error)} onRetry={() => void list.refetch()} />}
        {list.isSuccess && items.length === 0 && (
          <EmptyBlock title={debounced || status !== 'all' ? t('No numbers match') : t('No numbers yet')}>
            {debounced || status !== 'all'
              ? t('Try another search or show all numbers.')
              : t('Add the long and short codes your carriers gave you, then assign them to accounts.')}
          </EmptyBlock>
        )}
        {items.length > 0 && (
          <ResponsiveTable minWidth={900} verticalSpacing="sm" data-testid="admin-numbers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Number')}</Table.Th>
                <Table.Th>{t('Country')}</Table.Th>
                <Table.Th>{t('Connection')}</Table.Th>
                <Table.Th>{t('Monthly price')}</Table.Th>
                <Table.Th>{t('Account')}</Table.Th>
                <Table.Th>{t('Paid until')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((n) => (
                <Table.Tr key={n.id} data-number={n.number}>
                  <Table.Td data-label={t('Number')}>
                    <Stack gap={2} align="flex-start">
                      <Text size="sm" fw={600} ff="monospace" dir="ltr">
                        {n.number}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {kindLabel(n.kind)}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td data-label={t('Country')}>{n.country}</Table.Td>
                  <Table.Td data-label={t('Connection')}>
                    {n.connection ? (
                      <Text size="sm" ff="monospace">
                        {n.connection}
                      </Text>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('any')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Monthly price')}>
                    {formatMoney(n.monthlyPriceMinor, currency)}
                  </Table.Td>
                  <Table.Td data-label={t('Account')}>
                    {n.accountId ? (
                      <Anchor component={Link} size="sm" to={paths.admin.account.getHref(n.accountId)}>
                        {n.accountName ?? n.accountId}
                      </Anchor>
                    ) : (
                      <Badge variant="light" color="teal">
                        {t('Free')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t('Paid until')}>
                    {n.paidUntil ? (
                      <Group gap={6} wrap="nowrap">
                        <Text size="sm">{formatDate(n.paidUntil)}</Text>
                        {n.pastDueSince && (
                          <Badge color="red" variant="light" title={t('Its next month is not paid yet')}>
                            {t('Past due')}
                          </Badge>
                        )}
                      </Group>
                    ) : (
                      <Text size="sm" c="dimmed">
                        —
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label="">
                    <Group gap="xs" wrap="nowrap">
                      {n.accountId ? (
                        <Button size="xs" variant="default" onClick={() => openDialog(n, 'release')}>
                          {t('Release')}
                        </Button>
                      ) : (
                        <Button size="xs" onClick={() => openDialog(n, 'assign')}>
                          {t('Assign')}
                        </Button>
                      )}
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={t('More for {{name}}', { name: n.number })}
                          >
                            {t('More')}
                          </Button>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => editing.open({ number: n })}>{t('Edit')}</Menu.Item>
                          <Menu.Item
                            color="red"
                            disabled={n.accountId !== null}
                            onClick={() => openDialog(n, 'remove')}
                          >
                            {t('Remove')}
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ResponsiveTable>
        )}
        <LoadMore
          hasMore={list.hasNextPage}
          loading={list.isFetchingNextPage}
          onMore={() => void list.fetchNextPage()}
          shown={items.length}
        />
      </Paper>

      <NumberFormModal
        opened={editing.opened}
        number={editing.target?.number ?? null}
        currency={currency}
        onClose={editing.close}
        onSaved={(saved) => {
          toast.success(
            editing.target?.number
              ? t('Saved {{number}}.', { number: saved.number })
              : t('Added {{number}} to the inventory.', { number: saved.number }),
          );
          editing.close();
        }}
      />

      <AssignModal
        opened={assigning.opened}
        number={assigning.target}
        currency={currency}
        onClose={assigning.close}
      />

      <ConfirmDeleteModal
        opened={releasing.opened}
        title={t('Release number')}
        confirmLabel={t('Release')}
        loading={assign.isPending}
        error={dialogError}
        onConfirm={() => void release()}
        onClose={releasing.close}
      >
        <Text size="sm">
          {t(
            'Release {{number}} from {{account}}? It stops being their sender and their replies to it are no longer theirs. The month already paid is not refunded.',
            { number: releasing.target?.number ?? '', account: releasing.target?.accountName ?? '' },
          )}
        </Text>
      </ConfirmDeleteModal>

      <ConfirmDeleteModal
        opened={removing.opened}
        title={t('Remove number')}
        confirmLabel={t('Remove')}
        loading={remove.isPending}
        error={dialogError}
        onConfirm={() => void confirmRemove()}
        onClose={removing.close}
      >
        <Text size="sm">
          {t('Remove {{number}} from the inventory?', { number: removing.target?.number ?? '' })}
        </Text>
      </ConfirmDeleteModal>
    </Stack>
  );
}

/** Assign a free number: find the account, see what it will be charged, confirm. */
function AssignModal(props: {
  opened: boolean;
  number: NumberDto | null;
  currency: string;
  onClose: () => void;
}) {
  const { opened, number, currency, onClose } = props;
  const t = useT();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [accountId, setAccountId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const accounts = useAccounts(debounced, 'active');
  const assign = useAssignNumber();
  const options = (accounts.data?.pages.flatMap((p) => p.items) ?? []).map((a) => ({
    value: a.id,
    label: a.username ? `${a.name} (${a.username})` : a.name,
  }));

  const close = () => {
    setSearch('');
    setAccountId(null);
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (!number) return;
    if (!accountId) return setError(t('Choose an account'));
    try {
      const done = await assign.mutateAsync({ id: number.id, accountId });
      toast.success(
        t('Assigned {{number}} to {{account}}.', { number: done.number, account: done.accountName ?? '' }),
      );
      close();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('Assign {{number}}', { number: number?.number ?? '' })}>
      <Stack gap="md">
        <Select
          label={t('Account')}
          placeholder={t('Search by name or username')}
          searchable
          data={options}
          searchValue={search}
          onSearchChange={setSearch}
          value={accountId}
          onChange={setAccountId}
          filter={({ options: all }) => all}
          nothingFoundMessage={accounts.isFetching ? t('Searching…') : t('No such account')}
          data-autofocus
        />
        {number && (
          <Text size="sm" c="dimmed">
            {t(
              'The account is charged {{price}} now and every month after; the number becomes one of its senders.',
              {
                price: formatMoney(number.monthlyPriceMinor, currency),
              },
            )}
          </Text>
        )}
        <FormAlert message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('Cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={assign.isPending}>
            {t('Assign')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
