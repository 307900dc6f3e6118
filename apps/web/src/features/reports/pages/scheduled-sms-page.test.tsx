import { describe, expect, it } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { MESSAGING_API, type MessageDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { STORAGE_KEYS } from '@/lib/session';
import { fakeAdapter } from '@/test/fake-adapter';
import { accessTokenFor } from '@/test/render-page';
import ScheduledSmsPage from './scheduled-sms-page';

const scheduled = (id: string, scheduledAt: string): MessageDto => ({
  id,
  campaignId: null,
  recipient: `+1415555${id.padStart(4, '0')}`,
  sender: 'Wren',
  text: `Reminder ${id}`,
  encoding: 'GSM-7',
  segments: 1,
  priceMinor: 2,
  currency: 'USD',
  status: 'scheduled',
  error: null,
  scheduledAt,
  createdAt: '2025-01-01T10:00:00.000Z',
  submittedAt: null,
  receiptDueAt: null,
  doneAt: null,
});

describe('Scheduled SMS page', { timeout: 20_000 }, () => {
  it('with nothing scheduled, offers "Schedule a message" once (defect 11)', async () => {
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ name: 'Ada', timezone: 'Asia/Tokyo' }));
    localStorage.setItem(STORAGE_KEYS.accessToken, accessTokenFor('owner')); // Cancel: messages:send
    http.defaults.adapter = fakeAdapter((config) =>
      config.url === MESSAGING_API.log
        ? { status: 200, data: { items: [], nextCursor: null } }
        : { status: 404 },
    );
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <ScheduledSmsPage />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );
    await screen.findByText(/No scheduled messages/i);
    expect(screen.getAllByText('Schedule a message')).toHaveLength(1);
  });

  it('lists scheduled messages soonest first in the profile time zone, and cancels one after confirming', async () => {
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ name: 'Ada', timezone: 'Asia/Tokyo' }));
    localStorage.setItem(STORAGE_KEYS.accessToken, accessTokenFor('owner')); // Cancel: messages:send
    let items = [scheduled('2', '2099-03-02T01:00:00Z'), scheduled('1', '2099-03-01T01:00:00Z')];
    const api = (http.defaults.adapter = fakeAdapter((config) => {
      if (config.url === MESSAGING_API.log) return { status: 200, data: { items, nextCursor: null } };
      if (config.url === MESSAGING_API.cancel('1')) {
        items = items.filter((m) => m.id !== '1');
        return {
          status: 200,
          data: { message: { ...scheduled('1', '2099-03-01T01:00:00Z'), status: 'canceled' }, events: [] },
        };
      }
      return { status: 404 };
    }));
    const listCalls = () => api.calls.filter((c) => c.url === MESSAGING_API.log);
    const user = userEvent.setup({ delay: null });
    render(
      <MantineProvider env="test">
        <Notifications />
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <ScheduledSmsPage />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );

    const table = await screen.findByRole('table', { name: 'Scheduled messages' });
    await within(table).findByText('Reminder 1');
    expect(
      within(table)
        .getAllByText(/\(Asia\/Tokyo\)$/)
        .map((el) => el.textContent),
    ).toEqual(['1 Mar 2099, 10:00 (Asia/Tokyo)', '2 Mar 2099, 10:00 (Asia/Tokyo)']);
    expect(listCalls()[0]!.params).toMatchObject({ status: 'scheduled' });

    await user.click(within(table).getByRole('button', { name: 'Cancel the message to +14155550001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel scheduled message?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel message' }));
    expect(
      await screen.findByText('The message to +14155550001 was canceled and $0.02 refunded.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByText('Reminder 1')).not.toBeInTheDocument());
    expect(within(table).getByText('Reminder 2')).toBeInTheDocument();
    expect(api.calls.map((c) => `${c.method} ${c.url}`)).toContain(`post ${MESSAGING_API.cancel('1')}`);
  });
});
