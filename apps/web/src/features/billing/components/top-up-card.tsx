import { useState, type ReactNode } from 'react';
import {
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  useComputedColorScheme,
} from '@mantine/core';
import type { BillingSummaryDto, TopUpDto, TopUpStatus } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { ResponsiveTable } from '@/components/responsive-table';
import { useCan } from '@/lib/account-role';
import { formatDateTime } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { toMinor, useCheckout, useRequestTopUp, useTopUps } from '../api/billing';
import { useT } from '@/lib/i18n';

const STATUS: Record<TopUpStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  paid: { label: 'Paid', color: 'teal' },
  approved: { label: 'Approved', color: 'teal' },
  rejected: { label: 'Rejected', color: 'red' },
  expired: { label: 'Not paid', color: 'gray' },
};

/**
 * Text colours of light badges that meet AA (4.5:1) on their own background: Mantine's light teal,
 * yellow and red text do not in the light scheme (teal 9 is 4.3:1); the dark scheme's shade 3 does.
 */
const TEXT: Record<string, { light: string; dark: string }> = {
  teal: { light: '#05654a', dark: 'teal.3' },
  yellow: { light: '#6b4f00', dark: 'yellow.3' },
  red: { light: '#a51d1d', dark: 'red.3' },
};

/** A light badge never narrower than its word, its text in a colour that meets AA. */
export function ReadableBadge({ color, children }: { color: string; children: ReactNode }) {
  const scheme = useComputedColorScheme('light');
  const text = TEXT[color];
  return (
    <Badge color={color} variant="light" miw="max-content" c={text ? text[scheme] : undefined}>
      {children}
    </Badge>
  );
}

export function TopUpStatusBadge({ status }: { status: TopUpStatus }) {
  const t = useT();
  const s = STATUS[status];
  return <ReadableBadge color={s.color}>{t(s.label)}</ReadableBadge>;
}

/** The amount field of both forms, checked against the server's limits before sending. */
function useAmount(summary: BillingSummaryDto) {
  const [text, setText] = useState('');
  const minor = toMinor(text);
  const t = useT();
  const limits = t('{{min}} to {{max}}', {
    min: formatMoney(summary.minTopUpMinor, summary.currency),
    max: formatMoney(summary.maxTopUpMinor, summary.currency),
  });
  const problem =
    minor === null
      ? t('Enter an amount, e.g. 25.00')
      : minor < summary.minTopUpMinor || minor > summary.maxTopUpMinor
        ? t('Enter an amount from {{limits}}', { limits })
        : null;
  return { text, setText, minor, problem, limits };
}

/**
 * Adding credit (issue 47). With a payment provider: "Pay by card" opens Stripe Checkout, and the
 * balance is credited when Stripe confirms the payment. Without one: a request that an operator
 * approves, and the account's requests with their status.
 */
export function TopUpCard({ summary }: { summary: BillingSummaryDto }) {
  const canTopUp = useCan('billing:topup');
  const t = useT();
  const amount = useAmount(summary);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const checkout = useCheckout();
  const request = useRequestTopUp();
  const stripe = summary.provider === 'stripe';

  const submit = async () => {
    setTouched(true);
    setError(null);
    if (amount.problem || amount.minor === null) return;
    try {
      if (stripe) {
        const { url } = await checkout.mutateAsync(amount.minor);
        window.location.assign(url);
      } else {
        await request.mutateAsync({ amountMinor: amount.minor, note: note.trim() || undefined });
        toast.success(
          t('Requested a top-up of {{amount}}.', { amount: formatMoney(amount.minor, summary.currency) }),
        );
        amount.setText('');
        setNote('');
        setTouched(false);
      }
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        {t('Top up')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm" data-testid="top-up-how">
        {stripe
          ? t(
              'Pay by card on Stripe’s secure page. Your balance is credited as soon as Stripe confirms the payment.',
            )
          : t(
              'Card payments are not set up on this server. Send a request and an operator approves it; your balance is credited when it is approved.',
            )}
      </Text>
      {canTopUp ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="sm">
            <FormAlert message={error} />
            <TextInput
              label={t('Amount ({{currency}})', { currency: summary.currency })}
              placeholder="25.00"
              inputMode="decimal"
              description={amount.limits}
              value={amount.text}
              onChange={(e) => amount.setText(e.currentTarget.value)}
              error={touched ? amount.problem : null}
              maw={260}
            />
            {!stripe && (
              <Textarea
                label={t('Note for the operator (optional)')}
                placeholder={t('e.g. paid by bank transfer, invoice 1042')}
                autosize
                minRows={2}
                maxLength={500}
                value={note}
                onChange={(e) => setNote(e.currentTarget.value)}
              />
            )}
            <Group>
              <Button type="submit" loading={checkout.isPending || request.isPending}>
                {stripe ? t('Pay by card') : t('Request top-up')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Text size="sm">
          {t('Your role can see the balance but not add credit. Ask an owner, admin or billing member.')}
        </Text>
      )}
    </Paper>
  );
}

/** The account's top-ups (card payments and requests), newest first. */
export function TopUpList() {
  const list = useTopUps();
  const t = useT();
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        {t('Top-ups')}
      </Title>
      {list.isPending && (
        <Text size="sm" c="dimmed">
          {t('Loading top-ups…')}
        </Text>
      )}
      {list.isError && (
        <Group justify="space-between">
          <Text size="sm" c="red">
            {t('Could not load your top-ups: {{error}}', { error: messageOf(list.error) })}
          </Text>
          <Button size="xs" variant="light" onClick={() => void list.refetch()}>
            {t('Try again')}
          </Button>
        </Group>
      )}
      {list.isSuccess && list.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('No top-ups yet.')}
        </Text>
      )}
      {list.isSuccess && list.data.length > 0 && <TopUpRows items={list.data} />}
    </Paper>
  );
}

function TopUpRows({ items }: { items: TopUpDto[] }) {
  const t = useT();
  return (
    <ResponsiveTable minWidth={560} data-testid="top-up-list">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Requested')}</Table.Th>
          <Table.Th>{t('Amount')}</Table.Th>
          <Table.Th>{t('Status')}</Table.Th>
          <Table.Th>{t('Note')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((row) => (
          <Table.Tr key={row.id}>
            <Table.Td data-label={t('Requested')}>
              {formatDateTime(row.createdAt)}
              {row.requestedBy ? ` · ${row.requestedBy}` : ''}
            </Table.Td>
            <Table.Td data-label={t('Amount')}>{formatMoney(row.amountMinor, row.currency)}</Table.Td>
            <Table.Td data-label={t('Status')}>
              <TopUpStatusBadge status={row.status} />
            </Table.Td>
            <Table.Td data-label={t('Note')}>
              {[row.provider === 'stripe' ? t('Card (Stripe)') : row.note, row.decisionNote]
                .filter(Boolean)
                .join(' · ') || '—'}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ResponsiveTable>
  );
}
