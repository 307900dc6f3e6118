import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import {
  DASHBOARD_API,
  MESSAGING_API,
  type DashboardSummary,
  type MessageDto,
  type StatusCounts,
} from '@wren/contracts';
import { hub, hubKeys } from '@/lib/hub';
import { busy } from '@/lib/busy';
import { http } from '@/lib/http/client';
import { fakeAdapter } from '@/test/fake-adapter';
import { setTokens } from '@/lib/session';
import { accessTokenFor } from '@/test/render-page';
import DashboardPage from './dashboard-page';

const zero: StatusCounts = {
  scheduled: 0,
  queued: 0,
  sending: 0,
  sent: 0,
  delivered: 0,
  undelivered: 0,
  expired: 0,
  rejected: 0,
  failed: 0,
  canceled: 0,
  unknown: 0,
};

function summary(
  over: { today?: Partial<StatusCounts>; month?: Partial<StatusCounts> } = {},
): DashboardSummary {
  return {
    balance: { balanceMinor: 500, currency: 'USD' },
    deliveryStatus: {
      timezone: 'UTC',
      since: { today: '', week: '', month: '' },
      periods: {
        today: { ...zero, ...over.today },
        week: { ...zero, ...over.today },
        month: { ...zero, ...over.month },
      },
    },
    performance: [{ date: '2025-03-01', sent: 3, delivered: 2, failed: 1, deliveryRate: 0.6667 }],
  };
}

const MESSAGE: MessageDto = {
  id: 'm1',
  campaignId: null,
  recipient: '+14155552671',
  sender: 'Wren',
  text: 'Your code is 123456',
  encoding: 'GSM-7',
  segments: 1,
  priceMinor: 5,
  currency: 'USD',
  status: 'delivered',
  error: null,
  scheduledAt: null,
  createdAt: '2025-03-01T10:00:00.000Z',
  submittedAt: null,
  receiptDueAt: null,
  doneAt: null,
};

const original = http.defaults.adapter;

/** The app's busy-overlay counter as each request reached the server. */
let busyAtRequest: number[] = [];

function serve(data: DashboardSummary, log: MessageDto[]) {
  busyAtRequest = [];
  const adapter = fakeAdapter((config) => {
    busyAtRequest.push(busy.count());
    if (config.url === DASHBOARD_API.summary) return { status: 200, data };
    if (config.url === MESSAGING_API.log) return { status: 200, data: { items: log, nextCursor: null } };
    return { status: 404 };
  });
  http.defaults.adapter = adapter;
  return adapter;
}

function renderPage(queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <DashboardPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return queryClient;
}

beforeEach(() => {
  vi.restoreAllMocks();
  setTokens({ accessToken: accessTokenFor('owner'), refreshToken: 'r' });
  // jsdom has no layout: recharts warns that its container has no size.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  http.defaults.adapter = original;
});

describe('dashboard of each role (issue 39)', () => {
  it('shows a billing member the balance only: no log request, no error, no send button', async () => {
    setTokens({ accessToken: accessTokenFor('billing'), refreshToken: 'r' });
    const adapter = serve({ balance: summary().balance } as DashboardSummary, []);
    renderPage();
    expect(await screen.findByTestId('balance-value')).toHaveTextContent('$5.00');
    expect(screen.queryByTestId('messages-today')).not.toBeInTheDocument();
    expect(screen.queryByText('The dashboard could not load')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Send your first SMS' })).not.toBeInTheDocument();
    expect(adapter.calls.map((c) => c.url)).not.toContain(MESSAGING_API.log);
  });

  it('shows an analyst the delivery figures and no balance, and no send button on a new account', async () => {
    setTokens({ accessToken: accessTokenFor('analyst'), refreshToken: 'r' });
    const { balance: _b, ...rest } = summary();
    serve(rest as DashboardSummary, []);
    renderPage();
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
    expect(screen.queryByTestId('balance')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Send your first SMS' })).not.toBeInTheDocument();
  });
});

describe('dashboard', () => {
  it('a new account: the balance (en-US, USD) and an empty state with "Send your first SMS"', async () => {
    serve(summary(), []);
    renderPage();
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
    expect(screen.getByTestId('balance-value')).toHaveTextContent('$5.00');
    expect(screen.getByRole('link', { name: 'Send your first SMS' })).toHaveAttribute('href', '/sms/single');
    expect(screen.queryByTestId('delivery-status')).not.toBeInTheDocument();
  });

  it('without a hub connection the figures come from GET /api/dashboard/summary; counts by period', async () => {
    const adapter = serve(summary({ today: { delivered: 2, queued: 1 }, month: { delivered: 9 } }), [
      MESSAGE,
    ]);
    renderPage();
    const card = await screen.findByTestId('delivery-status');
    expect(await within(card).findByTestId('status-count-delivered')).toHaveTextContent('2');
    expect(within(card).getByTestId('status-count-queued')).toHaveTextContent('1');
    await userEvent.click(within(card).getByText('30 days'));
    expect(within(card).getByTestId('status-count-delivered')).toHaveTextContent('9');
    expect(within(card).queryByTestId('status-count-queued')).not.toBeInTheDocument();
    expect(screen.getByTestId('performance-rate')).toHaveTextContent('66.7%');
    expect(within(screen.getByTestId('recent-activity')).getByText('+14155552671')).toBeInTheDocument();
    expect(adapter.calls.map((c) => c.url)).toContain(DASHBOARD_API.summary);
    expect(screen.getByText(/Live updates are paused/)).toBeInTheDocument();
    // Background reads: they never raise the full-screen overlay.
    expect(busyAtRequest.length).toBeGreaterThanOrEqual(2);
    expect(busyAtRequest.every((n) => n === 0)).toBe(true);
  });

  it('says nothing about live updates while the first hub connection is being made', async () => {
    vi.spyOn(hub, 'getSnapshot').mockReturnValue({ state: 'Connecting', connected: false });
    serve(summary({ today: { delivered: 2 } }), [MESSAGE]);
    renderPage();
    expect(await screen.findByTestId('delivery-status')).toBeInTheDocument();
    expect(screen.queryByText(/Live updates are paused/)).not.toBeInTheDocument();
  });

  it('with the hub connected the figures come from its caches and follow every change, without a reload', async () => {
    vi.spyOn(hub, 'getSnapshot').mockReturnValue({ state: 'Connected', connected: true });
    const adapter = serve(summary(), [MESSAGE]);
    const queryClient = new QueryClient();
    const live = summary({ today: { sent: 1 } });
    queryClient.setQueryData(hubKeys.balance, { balanceMinor: 495, currency: 'USD' });
    queryClient.setQueryData(hubKeys.deliveryStatus, live.deliveryStatus);
    queryClient.setQueryData(hubKeys.performance, live.performance);
    renderPage(queryClient);
    expect(await screen.findByTestId('balance-value')).toHaveTextContent('$4.95');
    expect(screen.getByTestId('messages-today-value')).toHaveTextContent('1');

    act(() => {
      queryClient.setQueryData(hubKeys.balance, { balanceMinor: 490, currency: 'USD' });
      queryClient.setQueryData(hubKeys.deliveryStatus, summary({ today: { delivered: 2 } }).deliveryStatus);
    });
    await waitFor(() => expect(screen.getByTestId('balance-value')).toHaveTextContent('$4.90'));
    expect(screen.getByTestId('messages-today-value')).toHaveTextContent('2');
    await screen.findByText('+14155552671');
    expect(adapter.calls.map((c) => c.url)).not.toContain(DASHBOARD_API.summary);
    expect(screen.queryByText(/Live updates are paused/)).not.toBeInTheDocument();
  });
});
