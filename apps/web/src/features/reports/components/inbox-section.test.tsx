import { beforeEach, describe, expect, it } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { INBOUND_API, type InboundMessageDto, type SuppressionDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { attachHubSync } from '@/lib/hub/hub-sync';
import { fakeHub, flush } from '@/lib/hub/test/fake-hub';
import { bodyOf, fakeAdapter, type FakeAdapter, type FakeHandler } from '@/test/fake-adapter';
import { signInForTest } from '@/test/render-page';
import { LogTabs } from './log-tabs';

// An owner: the suppression list and its actions need contacts:read / contacts:write (issue 39).
beforeEach(() => signInForTest('owner'));

const mo = (id: string, over: Partial<InboundMessageDto> = {}): InboundMessageDto => ({
  id,
  from: '+14155550111',
  to: 'Wren',
  text: `Reply ${id}`,
  parts: 1,
  keyword: null,
  receivedAt: '2025-01-01T10:00:00.000Z',
  ...over,
});

let server: FakeAdapter;
let location = '';

function Probe() {
  const l = useLocation();
  location = `${l.pathname}${l.search}`;
  return null;
}

function renderTabs(at: string, handler: FakeHandler) {
  server = http.defaults.adapter = fakeAdapter(handler);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[at]}>
          <LogTabs sent={<p>The sent log</p>} />
          <Probe />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return client;
}

const inboxCalls = () => server.calls.filter((c) => c.url === INBOUND_API.list);

describe('Inbox tab', { timeout: 20_000 }, () => {
  it('switches from Sent to Inbox with the keyboard and keeps the tab in the URL', async () => {
    const user = userEvent.setup({ delay: null });
    renderTabs('/reports/sms-log', (config) =>
      config.url === INBOUND_API.list
        ? { status: 200, data: { items: [], nextCursor: null } }
        : { status: 200, data: { items: [] } },
    );
    expect(screen.getByText('The sent log')).toBeInTheDocument();
    expect(inboxCalls()).toHaveLength(0); // the inbox loads only when shown

    await user.click(screen.getByRole('tab', { name: 'Sent' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Inbox' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Inbox' })).toHaveAttribute('aria-selected', 'true'),
    );
    expect(location).toBe('/reports/sms-log?tab=inbox');
    expect(await screen.findByText('No inbound messages yet')).toBeInTheDocument();
    expect(await screen.findByText('No suppressed numbers.')).toBeInTheDocument();
  });

  it('shows loading, then the messages, and loads more by cursor', async () => {
    const user = userEvent.setup({ delay: null });
    renderTabs('/reports/sms-log?tab=inbox', (config) => {
      if (config.url !== INBOUND_API.list) return { status: 200, data: { items: [] } };
      const params = config.params as Record<string, unknown>;
      return params.cursor === 'c1'
        ? { status: 200, data: { items: [mo('m3', { text: 'Third reply' })], nextCursor: null } }
        : {
            status: 200,
            delay: 30,
            data: {
              items: [
                mo('m1', { text: 'STOP', keyword: 'STOP' }),
                mo('m2', { parts: 2, text: 'A long one' }),
              ],
              nextCursor: 'c1',
            },
          };
    });
    expect(screen.getByText('Loading inbox…')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Inbox' });
    await within(table).findByText('A long one');
    expect(within(table).getByText('2 parts')).toBeInTheDocument();
    expect(within(table).getAllByText('STOP')).toHaveLength(2); // the text and its keyword badge
    expect(within(table).getAllByText('+14155550111')).toHaveLength(2);
    expect(screen.getByText('2+ messages received')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await within(table).findByText('Third reply');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(inboxCalls().map((c) => (c.params as Record<string, unknown>).cursor)).toEqual([undefined, 'c1']);
  });

  it('reloads when the hub pushes InboundSmsReceived', async () => {
    let items = [mo('m1', { text: 'First' })];
    const client = renderTabs('/reports/sms-log?tab=inbox', (config) =>
      config.url === INBOUND_API.list
        ? { status: 200, data: { items, nextCursor: null } }
        : { status: 200, data: { items: [] } },
    );
    const h = fakeHub();
    const detach = attachHubSync(h.client, client, () => undefined);
    h.start();
    h.last().connect();
    await flush();
    await screen.findByText('First');

    items = [mo('m2', { text: 'Second, live' }), ...items];
    h.last().push('InboundSmsReceived');
    expect(await screen.findByText('Second, live')).toBeInTheDocument();
    detach();
    h.client.stop();
  });

  it('adds a suppressed number and removes one only after confirming', async () => {
    const user = userEvent.setup({ delay: null });
    let list: SuppressionDto[] = [
      {
        phone: '+14155550111',
        reason: 'stop_keyword',
        inboundMessageId: 'm1',
        createdAt: '2025-01-01T10:00:00.000Z',
      },
    ];
    renderTabs('/reports/sms-log?tab=inbox', (config) => {
      if (config.url === INBOUND_API.list) return { status: 200, data: { items: [], nextCursor: null } };
      if (config.url === INBOUND_API.suppressions && config.method === 'post') {
        const { phone } = bodyOf(config) as { phone: string };
        if (phone === 'nope')
          return { status: 400, data: { errors: { phone: ['Not a valid phone number: nope'] } } };
        const added: SuppressionDto = {
          phone,
          reason: 'manual',
          inboundMessageId: null,
          createdAt: '2025-01-02T10:00:00.000Z',
        };
        list = [added, ...list];
        return { status: 201, data: added };
      }
      if (config.url === INBOUND_API.suppressionOf('+14155550111') && config.method === 'delete') {
        list = list.filter((s) => s.phone !== '+14155550111');
        return { status: 204 };
      }
      if (config.url === INBOUND_API.suppressions) return { status: 200, data: { items: list } };
      return { status: 404, data: { code: 'NOT_FOUND', message: 'Not found' } };
    });
    const numbers = await screen.findByRole('list', { name: 'Suppressed numbers' });
    expect(within(numbers).getByText('Replied STOP')).toBeInTheDocument();

    const input = screen.getByRole('textbox', { name: 'Phone number to suppress' });
    await user.type(input, 'nope');
    await user.click(screen.getByRole('button', { name: 'Suppress' }));
    expect(await screen.findByText('Not a valid phone number: nope')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '+14155550122');
    await user.click(screen.getByRole('button', { name: 'Suppress' }));
    expect(await within(numbers).findByText('+14155550122')).toBeInTheDocument();
    expect(within(numbers).getByText('Added by hand')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove +14155550111 from suppressed numbers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove suppressed number' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.calls.some((c) => c.method === 'delete')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Remove +14155550111 from suppressed numbers' }));
    const again = await screen.findByRole('dialog', { name: 'Remove suppressed number' });
    await user.click(within(again).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(numbers).queryByText('+14155550111')).not.toBeInTheDocument());
    expect(server.calls.filter((c) => c.method === 'delete')).toHaveLength(1);
  });
});
