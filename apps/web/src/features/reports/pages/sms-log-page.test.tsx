import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { MESSAGING_API, type MessageDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter, type FakeAdapter, type FakeHandler } from '@/test/fake-adapter';
import { FAST_REFRESH_MS, SLOW_REFRESH_MS } from '../refresh-interval';
import SmsLogPage from './sms-log-page';

const message = (id: string, over: Partial<MessageDto> = {}): MessageDto => ({
  id,
  campaignId: null,
  recipient: '+14155552671',
  sender: 'Wren',
  text: `Message ${id}`,
  encoding: 'GSM-7',
  segments: 1,
  priceMinor: 1,
  currency: 'USD',
  status: 'delivered',
  error: null,
  scheduledAt: null,
  createdAt: '2025-01-01T10:00:00.000Z',
  submittedAt: '2025-01-01T10:00:01.000Z',
  receiptDueAt: null,
  doneAt: '2025-01-01T10:00:02.000Z',
  ...over,
});

let server: FakeAdapter;
let location = '';

function Probe() {
  const l = useLocation();
  location = `${l.pathname}${l.search}`;
  return null;
}

function renderLog(at: string, handler: FakeHandler) {
  server = http.defaults.adapter = fakeAdapter(handler);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[at]}>
          <SmsLogPage />
          <Probe />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const listCalls = () => server.calls.filter((c) => c.url === MESSAGING_API.log);

beforeEach(() => {
  location = '';
});

describe('SMS log page', { timeout: 20_000 }, () => {
  it('loads filtered pages by cursor and opens a message with its timeline', async () => {
    const user = userEvent.setup({ delay: null });
    renderLog('/reports/sms-log?status=delivered&page=2', (config) => {
      const params = config.params as Record<string, unknown>;
      if (config.url === MESSAGING_API.log) {
        return params.cursor === 'c1'
          ? { status: 200, data: { items: [message('m3')], nextCursor: null } }
          : { status: 200, data: { items: [message('m1'), message('m2')], nextCursor: 'c1' } };
      }
      if (config.url === MESSAGING_API.logItem('m2')) {
        return {
          status: 200,
          data: {
            message: message('m2'),
            events: [
              {
                id: '1',
                status: 'queued',
                detail: 'Accepted and queued',
                raw: null,
                createdAt: '2025-01-01T10:00:00Z',
              },
              {
                id: '2',
                status: 'receipt',
                detail: 'Part 1: DELIVRD',
                raw: 'id:1 stat:DELIVRD err:000',
                createdAt: '2025-01-01T10:00:02Z',
              },
              {
                id: '3',
                status: 'delivered',
                detail: 'Final: DELIVRD',
                raw: null,
                createdAt: '2025-01-01T10:00:02Z',
              },
            ],
          },
        };
      }
      return { status: 404 };
    });

    const table = await screen.findByRole('table', { name: 'SMS log' });
    await within(table).findByText('Message m1');
    expect(listCalls()[0].params).toEqual({ status: 'delivered', cursor: undefined, limit: 50 });
    // The address is left as it was (unknown params included) until a filter changes.
    expect(location).toBe('/reports/sms-log?status=delivered&page=2');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await within(table).findByText('Message m3');
    expect(listCalls().at(-1)?.params).toMatchObject({ status: 'delivered', cursor: 'c1' });
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    within(table)
      .getAllByRole('row', { name: /Open details/ })[1]
      .focus();
    await user.keyboard('{Enter}');
    const drawer = await screen.findByRole('dialog', { name: 'Message details' });
    expect(await within(drawer).findByText('id:1 stat:DELIVRD err:000')).toBeInTheDocument();
    expect(within(drawer).getByTestId('message-timeline')).toHaveTextContent(/Queued.*Receipt.*Delivered/);
    expect(location).toContain('message=m2');
  });

  it('keeps the filters in the address and shows an empty state for no matches', async () => {
    const user = userEvent.setup({ delay: null });
    renderLog('/reports/sms-log', () => ({ status: 200, data: { items: [], nextCursor: null } }));
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Recipient' }), '4420');
    await waitFor(() => expect(location).toBe('/reports/sms-log?recipient=4420'));
    expect(await screen.findByText('No messages match these filters')).toBeInTheDocument();
    await waitFor(() => expect(listCalls().at(-1)?.params).toMatchObject({ recipient: '4420' }));
  });

  describe('with fake timers', () => {
    // The clock also moves with real time, so the queries and findBy* work as usual; the refresh
    // timers are then run forward instead of waited for.
    beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
    afterEach(() => vi.useRealTimers());

    it('refreshes while a message is still on its way, and stops once all are final', async () => {
      let status: MessageDto['status'] = 'sent';
      renderLog('/reports/sms-log', () => ({
        status: 200,
        data: {
          items: [message('m1', { status, createdAt: new Date().toISOString(), submittedAt: null })],
          nextCursor: null,
        },
      }));
      const table = await screen.findByRole('table', { name: 'SMS log' });
      await within(table).findByText('Sent');
      expect(screen.getByText('Live')).toBeInTheDocument();
      status = 'delivered';
      const before = listCalls().length;
      await act(() => vi.advanceTimersByTimeAsync(FAST_REFRESH_MS));
      await within(table).findByText('Delivered');
      expect(listCalls().length).toBeGreaterThan(before);
      const calls = listCalls().length;
      expect(screen.queryByText('Live')).not.toBeInTheDocument();
      // Not even at the slow pace: a page of final messages is not refreshed.
      await act(() => vi.advanceTimersByTimeAsync(SLOW_REFRESH_MS * 2));
      expect(listCalls().length).toBe(calls);
    });
  });
});
