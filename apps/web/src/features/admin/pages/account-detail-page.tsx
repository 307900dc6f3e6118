import { useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  TagsInput,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import type { AdminAccountDetail, UserRole } from '@wren/contracts';
import { ADMIN_API } from '@wren/contracts';
import { useParams } from 'react-router';
import { FormAlert } from '@/components/form-alert';
import { ResponsiveTable } from '@/components/responsive-table';
import { downloadFile } from '@/lib/download';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { useCurrentUser } from '@/lib/use-session';
import { toast } from '@/lib/toast';
import {
  adminPath,
  useAccount,
  useAdjust,
  useAssignPlan,
  useLedger,
  useLock,
  useRatePlans,
  useSetLimits,
  useSetRole,
  useUnlock,
} from '../api/admin-api';
import {
  AccountStatusBadge,
  ErrorBlock,
  LoadingBlock,
  LoadMore,
  SectionHeader,
  When,
} from '../components/common';
import { newRequestId } from '@/lib/request-id';

/** "12.34" → 1234 minor units (2 decimals), exactly; null when it is not an amount. */
export function toMinor(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0') || '0');
}

function AdjustmentCard({ account }: { account: AdminAccountDetail }) {
  const adjust = useAdjust(account.id);
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // One per confirmation: sending it twice (a double click, a retry) posts the adjustment once.
  const [requestId, setRequestId] = useState(newRequestId);
  const minor = toMinor(amount);
  const signed = minor === null ? null : direction === 'credit' ? minor : -minor;

  const ask = () => {
    setError(null);
    if (!minor) return setError('Enter an amount greater than zero, e.g. 25.00');
    if (reason.trim().length < 3) return setError('Give a reason of at least 3 characters');
    setRequestId(newRequestId());
    setConfirming(true);
  };
  const submit = async () => {
    try {
      const res = (await adjust.mutateAsync({ amountMinor: signed!, reason: reason.trim(), requestId })) as {
        balanceMinor: number;
      };
      toast.success(`Balance is now ${formatMoney(res.balanceMinor, account.currency)}.`);
      setAmount('');
      setReason('');
      setConfirming(false);
    } catch (e) {
      setError(messageOf(e));
      setConfirming(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        Credit or debit
      </Title>
      <Stack gap="sm">
        <SegmentedControl
          aria-label="Direction"
          value={direction}
          onChange={(v) => setDirection(v)}
          data={[
            { value: 'credit', label: 'Credit (top-up)' },
            { value: 'debit', label: 'Debit' },
          ]}
        />
        <NumberInput
          label={`Amount (${account.currency})`}
          placeholder="25.00"
          decimalScale={2}
          min={0}
          hideControls
          value={amount}
          onChange={(v) => setAmount(String(v))}
        />
        <Textarea
          label="Reason"
          description="Shown in the account's ledger and the audit log. Say “overdraft” to allow a negative balance where that is enabled."
          placeholder="Bank transfer ref 2026-0415"
          autosize
          minRows={2}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <FormAlert message={error} />
        <Group justify="flex-end">
          <Button onClick={ask}>{direction === 'credit' ? 'Credit account' : 'Debit account'}</Button>
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Confirm adjustment" centered>
        <Stack>
          <Text size="sm">
            {direction === 'credit' ? 'Credit' : 'Debit'}{' '}
            <b>{signed !== null && formatMoney(Math.abs(signed), account.currency)}</b>{' '}
            {direction === 'credit' ? 'to' : 'from'} <b>{account.username ?? account.name}</b>? The balance
            goes from {formatMoney(account.balanceMinor, account.currency)} to{' '}
            <b>{formatMoney(account.balanceMinor + (signed ?? 0), account.currency)}</b>. Ledger entries
            cannot be changed afterwards; a mistake is corrected with an opposite adjustment.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button
              onClick={() => void submit()}
              loading={adjust.isPending}
              color={direction === 'debit' ? 'red' : undefined}
            >
              Confirm {direction}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

function LockCard({ account }: { account: AdminAccountDetail }) {
  const lock = useLock(account.id);
  const unlock = useUnlock(account.id);
  const me = useCurrentUser();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const locked = account.status === 'locked';
  const own = me?.accountId === account.id;

  const submit = async () => {
    setError(null);
    try {
      if (locked) await unlock.mutateAsync({ reason: reason.trim() || undefined });
      else await lock.mutateAsync({ reason: reason.trim() });
      toast.success(
        locked ? 'The account is unlocked.' : 'The account is locked and its sessions have ended.',
      );
      setOpen(false);
      setReason('');
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        Access
      </Title>
      {locked ? (
        <Alert color="red" variant="light" mb="sm" title="Locked">
          Since <When at={account.lockedAt} />: {account.lockedReason}
        </Alert>
      ) : (
        <Text size="sm" c="dimmed" mb="sm">
          Locking signs every user of this account out at once and stops them signing in until it is unlocked.
          It also stops the account&apos;s sending: its waiting messages and the unsent part of its campaigns
          are canceled and refunded, and its API keys stop working.
        </Text>
      )}
      <Button
        variant={locked ? 'filled' : 'default'}
        disabled={own && !locked}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        {locked ? 'Unlock account' : 'Lock account'}
      </Button>
      {own && !locked && (
        <Text size="xs" c="dimmed" mt={4}>
          This is your own account.
        </Text>
      )}
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={locked ? 'Unlock account' : 'Lock account'}
        centered
      >
        <Stack>
          <Text size="sm">
            {locked
              ? `Let the users of ${account.username ?? account.name} sign in again?`
              : `Lock ${account.username ?? account.name}? Every user is signed out now and cannot sign in until you unlock it.`}
          </Text>
          {!locked && (
            <Text size="sm">
              The account&apos;s scheduled and queued messages and unfinished campaigns are canceled now and
              their cost refunded. They stay canceled after an unlock. Messages already being sent still go
              out.
            </Text>
          )}
          <Textarea
            label={locked ? 'Note (optional)' : 'Reason'}
            placeholder={locked ? 'Verified with the customer' : 'Spam complaints from carriers'}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus
          />
          <FormAlert message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              color={locked ? undefined : 'red'}
              loading={lock.isPending || unlock.isPending}
              onClick={() => void submit()}
            >
              {locked ? 'Unlock' : 'Lock account'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

function PlanAndLimitsCard({ account }: { account: AdminAccountDetail }) {
  const plans = useRatePlans();
  const assign = useAssignPlan(account.id);
  const setLimits = useSetLimits(account.id);
  const [plan, setPlan] = useState<string>(account.ratePlanId ?? '');
  const [tps, setTps] = useState<string | number>(account.limits.maxPerSecond ?? '');
  const [cap, setCap] = useState<string | number>(account.limits.dailyCap ?? '');
  const [countries, setCountries] = useState<string[]>(account.limits.allowedCountries ?? []);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setPlan(account.ratePlanId ?? ''), [account.ratePlanId]);

  const savePlan = async () => {
    setError(null);
    try {
      await assign.mutateAsync(plan || null);
      toast.success('Rate plan assigned.');
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const saveLimits = async () => {
    setError(null);
    const bad = countries.find((c) => !/^[A-Z]{2}$/.test(c));
    if (bad) return setError(`"${bad}" is not a two-letter country code (GB, US)`);
    try {
      await setLimits.mutateAsync({
        maxPerSecond: tps === '' ? null : Number(tps),
        dailyCap: cap === '' ? null : Number(cap),
        allowedCountries: countries.length ? countries : null,
      });
      toast.success('Limits saved.');
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const defaultPlan = plans.data?.find((p) => p.isDefault);
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        Rate plan and limits
      </Title>
      <Stack gap="sm">
        <Group align="flex-end" gap="sm">
          <Select
            label="Rate plan"
            flex={1}
            value={plan}
            onChange={(v) => setPlan(v ?? '')}
            data={[
              { value: '', label: `Default${defaultPlan ? ` (${defaultPlan.name})` : ''}` },
              ...(plans.data ?? []).map((p) => ({ value: p.id, label: `${p.name} · ${p.currency}` })),
            ]}
            allowDeselect={false}
          />
          <Button
            variant="default"
            onClick={() => void savePlan()}
            loading={assign.isPending}
            disabled={plan === (account.ratePlanId ?? '')}
          >
            Assign
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label="Messages per second"
            description="Sends are paced to this rate; other accounts are not slowed"
            placeholder="No limit"
            min={1}
            max={10000}
            allowDecimal={false}
            value={tps}
            onChange={setTps}
          />
          <NumberInput
            label="Daily cap (messages)"
            description={
              account.acceptedToday === null
                ? 'Messages accepted per UTC day; a larger send is refused'
                : `${account.acceptedToday.toLocaleString()} of ${(account.limits.dailyCap ?? 0).toLocaleString()} used today (UTC)`
            }
            placeholder="No cap"
            min={0}
            allowDecimal={false}
            value={cap}
            onChange={setCap}
          />
        </SimpleGrid>
        <TagsInput
          label="Allowed countries"
          description="Two-letter codes; sends to other countries are refused. Leave empty to allow every country"
          placeholder="GB, US…"
          value={countries}
          onChange={(v) => setCountries(v.map((c) => c.trim().toUpperCase()))}
          splitChars={[',', ' ']}
        />
        <FormAlert message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void saveLimits()} loading={setLimits.isPending}>
            Save limits
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function UsersCard({ account }: { account: AdminAccountDetail }) {
  const setRole = useSetRole(account.id);
  const me = useCurrentUser();
  const change = async (userId: string, role: UserRole) => {
    try {
      await setRole.mutateAsync({ userId, role });
      toast.success(role === 'admin' ? 'The user is now an admin.' : 'The user is no longer an admin.');
    } catch (e) {
      toast.error(messageOf(e));
    }
  };
  return (
    <Paper withBorder radius="md">
      <SectionHeader title="Users" hint="A role change signs the user out so it applies at once" />
      <ResponsiveTable minWidth={700} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>User</Table.Th>
            <Table.Th>Email / phone</Table.Th>
            <Table.Th>Last activity</Table.Th>
            <Table.Th>Sessions</Table.Th>
            <Table.Th>Role</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {account.users.map((u) => (
            <Table.Tr key={u.id}>
              <Table.Td data-label="User">
                <Text fw={600} size="sm">
                  {u.username}
                </Text>
                <Text size="xs" c="dimmed">
                  {u.name}
                </Text>
              </Table.Td>
              <Table.Td data-label="Email / phone">
                <Text size="sm">{u.email}</Text>
                <Text size="xs" c="dimmed">
                  {u.phone}
                </Text>
              </Table.Td>
              <Table.Td data-label="Last activity">
                <When at={u.lastActivityAt} empty="Never" />
              </Table.Td>
              <Table.Td data-label="Sessions">{u.activeSessions}</Table.Td>
              <Table.Td data-label="Role">
                <SegmentedControl
                  size="xs"
                  aria-label={`Role of ${u.username}`}
                  value={u.role}
                  disabled={setRole.isPending || u.id === me?.id}
                  onChange={(v) => void change(u.id, v)}
                  data={[
                    { value: 'user', label: 'User' },
                    { value: 'admin', label: 'Admin' },
                  ]}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ResponsiveTable>
    </Paper>
  );
}

function LedgerCard({ account }: { account: AdminAccountDetail }) {
  const ledger = useLedger(account.id);
  const items = ledger.data?.pages.flatMap((p) => p.items) ?? [];
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadFile(adminPath(ADMIN_API.ledgerCsv, account.id), `ledger-${account.name}.csv`);
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setExporting(false);
    }
  };
  return (
    <Paper withBorder radius="md">
      <SectionHeader title="Ledger" hint="Every movement of money, newest first; the balance is their sum">
        <Button variant="default" onClick={() => void exportCsv()} loading={exporting}>
          Export CSV
        </Button>
      </SectionHeader>
      {ledger.isPending && <LoadingBlock label="Loading the ledger…" />}
      {ledger.isError && (
        <ErrorBlock message={messageOf(ledger.error)} onRetry={() => void ledger.refetch()} />
      )}
      {ledger.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed" p="md">
          No entries yet.
        </Text>
      )}
      {items.length > 0 && (
        <ResponsiveTable minWidth={700} verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Note</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td data-label="Date">
                  <When at={e.createdAt} />
                </Table.Td>
                <Table.Td data-label="Kind">
                  <Badge variant="light" color={e.kind === 'adjustment' ? 'grape' : 'gray'}>
                    {e.kind}
                  </Badge>
                </Table.Td>
                <Table.Td
                  data-label="Amount"
                  ta="right"

                  ff="monospace"
                >
                  {e.amountMinor > 0 ? '+' : ''}
                  {formatMoney(e.amountMinor, e.currency)}
                </Table.Td>
                <Table.Td data-label="Note">
                  <Text size="sm" lineClamp={2}>
                    {e.note ?? e.reference ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
      )}
      <LoadMore
        hasMore={!!ledger.hasNextPage}
        loading={ledger.isFetchingNextPage}
        onMore={() => void ledger.fetchNextPage()}
        shown={items.length}
      />
    </Paper>
  );
}

export default function AccountDetailPage() {
  const { id = '' } = useParams();
  const account = useAccount(id);
  if (account.isPending) return <LoadingBlock label="Loading the account…" />;
  if (account.isError)
    return <ErrorBlock message={messageOf(account.error)} onRetry={() => void account.refetch()} />;
  const a = account.data;
  return (
    <Stack gap="lg">
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
              {a.name} · {a.email} · created <When at={a.createdAt} />
            </Text>
          </div>
          <div style={{ textAlign: 'right' }}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Balance
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
              {a.ratePlanId === null ? ' (default plan)' : ''}
            </Text>
          </div>
        </Group>
      </Paper>
      <SimpleGrid cols={{ base: 1, lg: 3 }}>
        <AdjustmentCard account={a} />
        <PlanAndLimitsCard key={`${a.ratePlanId}-${JSON.stringify(a.limits)}`} account={a} />
        <LockCard account={a} />
      </SimpleGrid>
      <UsersCard account={a} />
      <LedgerCard account={a} />
    </Stack>
  );
}
