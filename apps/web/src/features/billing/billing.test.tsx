import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BILLING_API, BILLING_DATA_API, type BillingSummaryDto, type TopUpDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter, type FakeAdapter, type FakeReply } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import BalancePage from './pages/balance-page';
import LedgerPage from './pages/ledger-page';
import PricesPage from './pages/prices-page';

let server: FakeAdapter;
let summary: BillingSummaryDto;
let topUps: TopUpDto[];
let summaryReply: FakeReply | null;

const topUp = (extra: Partial<TopUpDto> = {}): TopUpDto => ({
  id: '00000000-0000-4000-8000-000000000001',
  provider: 'manual',
  status: 'pending',
  amountMinor: 2500,
  currency: 'USD',
  note: 'Bank transfer',
  decisionNote: null,
  requestedBy: 'Ada Lovelace',
  createdAt: '2026-11-30T10:00:00.000Z',
  decidedAt: null,
  ...extra,
});

beforeEach(() => {
  signInForTest('owner');
  summary = {
    balanceMinor: 1234,
    currency: 'USD',
    provider: 'manual',
    minTopUpMinor: 500,
    maxTopUpMinor: 1_000_000,
  };
  topUps = [];
  summaryReply = null;
  server = http.defaults.adapter = fakeAdapter((c) => {
    if (c.url === BILLING_API.summary) return summaryReply ?? { status: 200, data: summary };
    if (c.url === BILLING_API.topUps && c.method === 'get') return { status: 200, data: { items: topUps } };
    if (c.url === BILLING_API.topUps && c.method === 'post') {
      const t = topUp({ amountMinor: (bodyOf(c) as { amountMinor: number }).amountMinor });
      topUps = [t];
      return { status: 201, data: t };
    }
    if (c.url === BILLING_API.checkout)
      return { status: 201, data: { id: topUp().id, url: 'https://checkout.stripe.com/c/pay/cs_test_1' } };
    if (c.url === BILLING_DATA_API.lowBalance)
      return { status: 200, data: { thresholdMinor: null, currency: 'USD', below: false, firedAt: null } };
    if (c.url === BILLING_DATA_API.prices) {
      const q = (c.params as { q?: string } | undefined)?.q;
      const all = [
        { prefix: '+44', country: 'GB', countryName: 'United Kingdom', priceMinor: 4 },
        { prefix: '+254', country: 'KE', countryName: 'Kenya', priceMinor: 2 },
      ];
      const items = q ? all.filter((p) => p.countryName.toLowerCase().includes(q.toLowerCase())) : all;
      return { status: 200, data: { currency: 'USD', items, total: all.length } };
    }
    if (c.url === BILLING_DATA_API.ledger) {
      const kind = (c.params as { kind?: string } | undefined)?.kind;
      const items = [
        {
          id: '2',
          amountMinor: -4,
          currency: 'USD',
          kind: 'sms_debit',
          reference: null,
          note: null,
          createdAt: '2026-11-30T10:00:00.000Z',
        },
        {
          id: '1',
          amountMinor: 500,
          currency: 'USD',
          kind: 'trial_credit',
          reference: null,
          note: 'Welcome',
          createdAt: '2026-11-29T10:00:00.000Z',
        },
      ].filter((e) => !kind || e.kind === kind);
      return { status: 200, data: { items, nextCursor: null, balanceMinor: 496, currency: 'USD' } };
    }
    return { status: 404 };
  });
});
afterEach(() => vi.restoreAllMocks());

const calls = (url: string, method: string) =>
  server.calls.filter((c) => c.url === url && c.method === method);

describe('Billing → Balance', () => {
  it('without a payment provider: says an operator approves, sends a request and lists it as pending', async () => {
    renderScreen(<BalancePage />);
    expect(await screen.findByTestId('billing-balance')).toHaveTextContent('$12.34');
    expect(screen.getByTestId('top-up-how')).toHaveTextContent(/an operator approves it/);
    expect(screen.queryByRole('button', { name: 'Pay by card' })).not.toBeInTheDocument();
    expect(await screen.findByText('No top-ups yet.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Amount (USD)'), '25');
    await userEvent.click(screen.getByRole('button', { name: 'Request top-up' }));
    await waitFor(() => expect(calls(BILLING_API.topUps, 'post')).toHaveLength(1));
    expect(bodyOf(calls(BILLING_API.topUps, 'post')[0]!)).toEqual({ amountMinor: 2500 });
    const list = await screen.findByTestId('top-up-list');
    expect(within(list).getByText('Pending')).toBeInTheDocument();
    expect(within(list).getByText('$25.00')).toBeInTheDocument();
  });

  it('refuses an amount outside the limits before sending anything', async () => {
    renderScreen(<BalancePage />);
    await userEvent.type(await screen.findByLabelText('Amount (USD)'), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Request top-up' }));
    expect(await screen.findByText('Enter an amount from $5.00 to $10,000.00')).toBeInTheDocument();
    expect(calls(BILLING_API.topUps, 'post')).toHaveLength(0);
  });

  it('with Stripe: "Pay by card" creates a checkout session on the server and goes to its page', async () => {
    summary.provider = 'stripe';
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    renderScreen(<BalancePage />);
    expect(await screen.findByTestId('top-up-how')).toHaveTextContent(/Stripe/);
    await userEvent.type(screen.getByLabelText('Amount (USD)'), '10.50');
    await userEvent.click(screen.getByRole('button', { name: 'Pay by card' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
    expect(bodyOf(calls(BILLING_API.checkout, 'post')[0]!)).toEqual({ amountMinor: 1050 });
  });

  it('shows the error with a way to try again', async () => {
    summaryReply = { status: 500, data: { code: 'INTERNAL', message: 'Boom' } };
    renderScreen(<BalancePage />);
    expect(await screen.findByText('Could not load your billing')).toBeInTheDocument();
    summaryReply = null;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('billing-balance')).toHaveTextContent('$12.34');
  });
});

describe('Billing → Prices and Ledger', () => {
  it('searches the price list and says when nothing matches', async () => {
    renderScreen(<PricesPage />);
    const table = await screen.findByTestId('price-table');
    expect(within(table).getByText('United Kingdom')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search'), 'atlantis');
    expect(await screen.findByText('No destination matches “atlantis”.')).toBeInTheDocument();
    expect(
      calls(BILLING_DATA_API.prices, 'get').some((c) => (c.params as { q?: string }).q === 'atlantis'),
    ).toBe(true);
  });

  it('filters the ledger by kind', async () => {
    renderScreen(<LedgerPage />);
    const table = await screen.findByTestId('ledger-table');
    expect(within(table).getByText('Trial credit')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Kind' }));
    await userEvent.click(await screen.findByRole('option', { name: 'SMS charge' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('ledger-table')).queryByText('Trial credit')).toBeNull(),
    );
    expect(calls(BILLING_DATA_API.ledger, 'get').at(-1)!.params).toMatchObject({ kind: 'sms_debit' });
  });
});
