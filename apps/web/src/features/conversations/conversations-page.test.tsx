import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  CONVERSATIONS_API,
  MEMBERS_API,
  type ConversationDto,
  type ConversationMessage,
} from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter, type FakeAdapter, type FakeReply } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import ConversationsPage from './pages/conversations-page';

let server: FakeAdapter;
let items: ConversationDto[];
let messages: ConversationMessage[];
let reply: ((method: string, url: string) => FakeReply | undefined) | undefined;

const ID = '11111111-1111-4111-8111-111111111111';
const path = (pattern: string) => pattern.replace(':id', ID);

const conv = (over: Partial<ConversationDto> = {}): ConversationDto => ({
  id: ID,
  remote: '+447700900123',
  local: '+447700900001',
  name: null,
  lastAt: '2026-12-01T10:05:00.000Z',
  lastText: 'Yes please',
  lastDirection: 'in',
  unread: 2,
  archived: false,
  assigneeId: null,
  assigneeName: null,
  ...over,
});

const msg = (id: string, direction: 'in' | 'out', text: string, at: string): ConversationMessage => ({
  id,
  direction,
  text,
  at,
  status: direction === 'out' ? 'delivered' : null,
  parts: 1,
});

beforeEach(() => {
  signInForTest('owner');
  items = [];
  messages = [];
  reply = undefined;
  server = http.defaults.adapter = fakeAdapter((c) => {
    const method = c.method ?? 'get';
    const custom = reply?.(method, c.url ?? '');
    if (custom) return custom;
    if (c.url === CONVERSATIONS_API.list && method === 'get')
      return {
        status: 200,
        data: { items, nextCursor: null, unreadTotal: items.reduce((n, i) => n + i.unread, 0) },
      };
    if (c.url === path(CONVERSATIONS_API.messages))
      return { status: 200, data: { items: messages, before: null } };
    if (c.url === path(CONVERSATIONS_API.read)) return { status: 200, data: { ...items[0], unread: 0 } };
    if (c.url === path(CONVERSATIONS_API.archive))
      return { status: 200, data: { ...items[0], archived: true } };
    if (c.url === path(CONVERSATIONS_API.assignee))
      return { status: 200, data: { ...items[0], assigneeId: 'u2', assigneeName: 'Grace Hopper' } };
    if (c.url === MEMBERS_API.members)
      return {
        status: 200,
        data: {
          items: [
            {
              userId: 'u2',
              name: 'Grace Hopper',
              username: 'grace',
              email: 'grace@example.com',
              role: 'user',
              joinedAt: '2026-01-01T00:00:00.000Z',
              you: false,
            },
          ],
        },
      };
    return { status: 404 };
  });
});

const callsTo = (method: string, url: string) =>
  server.calls.filter((c) => (c.method ?? 'get') === method && c.url === url);

async function openThread() {
  renderScreen(<ConversationsPage />);
  const list = await screen.findByTestId('conversation-list');
  await userEvent.click(await within(list).findByText('+447700900123'));
  return screen.findByTestId('conversation-thread');
}

describe('Messaging → Conversations', () => {
  it('explains where replies come from when there are no conversations', async () => {
    renderScreen(<ConversationsPage />);
    expect(await screen.findByText('No conversations yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your numbers' })).toHaveAttribute(
      'href',
      '/settings/numbers',
    );
  });

  it('lists threads with the unread total, opens one in time order and marks it read', async () => {
    items = [conv(), conv({ id: 'other', remote: '+447700900999', name: 'Grace Hopper', unread: 1 })];
    messages = [
      msg('m1', 'out', 'Your appointment is tomorrow', '2026-12-01T10:00:00.000Z'),
      msg('m2', 'in', 'Yes please', '2026-12-01T10:05:00.000Z'),
    ];
    renderScreen(<ConversationsPage />);
    expect(await screen.findByTestId('unread-total')).toHaveTextContent('3 unread');
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    await userEvent.click(screen.getByText('+447700900123'));
    const thread = await screen.findByTestId('conversation-thread');
    const bubbles = await within(thread).findAllByText(/appointment|Yes please/);
    expect(bubbles.map((b) => b.textContent)).toEqual(['Your appointment is tomorrow', 'Yes please']);
    const directions = [...thread.querySelectorAll('[data-direction]')].map((b) =>
      b.getAttribute('data-direction'),
    );
    expect(directions).toEqual(['out', 'in']);
    expect(thread).toHaveTextContent('Delivered');
    await waitFor(() => expect(callsTo('post', path(CONVERSATIONS_API.read))).toHaveLength(1));
  });

  it('sends a reply and clears the box; a 402 shows the message and keeps the text', async () => {
    items = [conv()];
    let first = true;
    reply = (method, url) => {
      if (method !== 'post' || url !== path(CONVERSATIONS_API.reply)) return undefined;
      if (first) {
        first = false;
        return {
          status: 402,
          data: { code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance: this costs £0.04' },
        };
      }
      return { status: 202, data: { messages: [], totalPriceMinor: 4, currency: 'GBP', balanceMinor: 96 } };
    };
    const thread = await openThread();
    const box = within(thread).getByRole('textbox', { name: 'Reply' });
    await userEvent.type(box, 'See you then');
    expect(within(thread).getByTestId('reply-counter')).toHaveTextContent('1 segment');
    await userEvent.click(within(thread).getByRole('button', { name: 'Send' }));
    expect(await within(thread).findByTestId('reply-error')).toHaveTextContent(
      'Insufficient balance: this costs £0.04',
    );
    expect(box).toHaveValue('See you then');
    await userEvent.type(box, '{Control>}{Enter}{/Control}');
    await waitFor(() => expect(box).toHaveValue(''));
    expect(within(thread).queryByTestId('reply-error')).toBeNull();
    const posts = callsTo('post', path(CONVERSATIONS_API.reply));
    expect(posts.map((p) => bodyOf(p))).toEqual([{ text: 'See you then' }, { text: 'See you then' }]);
  });

  it('keeps the text and says so when the handset opted out', async () => {
    items = [conv()];
    reply = (method, url) =>
      method === 'post' && url === path(CONVERSATIONS_API.reply)
        ? {
            status: 202,
            data: {
              messages: [],
              totalPriceMinor: 0,
              currency: 'GBP',
              balanceMinor: 100,
              suppressed: [{ number: '+447700900123', reason: 'opt-out' }],
            },
          }
        : undefined;
    const thread = await openThread();
    const box = within(thread).getByRole('textbox', { name: 'Reply' });
    await userEvent.type(box, 'Hello?');
    await userEvent.click(within(thread).getByRole('button', { name: 'Send' }));
    expect(await within(thread).findByTestId('reply-error')).toHaveTextContent('opted out');
    expect(box).toHaveValue('Hello?');
  });

  it('archives the open thread', async () => {
    items = [conv()];
    const thread = await openThread();
    await userEvent.click(within(thread).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(callsTo('put', path(CONVERSATIONS_API.archive))).toHaveLength(1));
    expect(bodyOf(callsTo('put', path(CONVERSATIONS_API.archive))[0]!)).toEqual({ archived: true });
  });

  it('says when a thread has no messages', async () => {
    items = [conv()];
    const thread = await openThread();
    expect(await within(thread).findByText('No messages in this conversation yet')).toBeInTheDocument();
  });

  it('searches by what is typed and says when nothing matches', async () => {
    renderScreen(<ConversationsPage />);
    await screen.findByText('No conversations yet');
    await userEvent.type(screen.getByRole('textbox', { name: 'Search conversations' }), 'table');
    expect(await screen.findByText('No conversations match')).toBeInTheDocument();
    const lists = callsTo('get', CONVERSATIONS_API.list);
    expect(lists.at(-1)?.params).toMatchObject({ q: 'table', status: 'open' });
  });

  it('assigns the thread to a member, or to nobody', async () => {
    items = [conv()];
    const thread = await openThread();
    await userEvent.click(within(thread).getByRole('button', { name: 'Assign' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Grace Hopper' }));
    await userEvent.click(within(thread).getByRole('button', { name: 'Assign' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Nobody' }));
    await waitFor(() => expect(callsTo('put', path(CONVERSATIONS_API.assignee))).toHaveLength(2));
    expect(callsTo('put', path(CONVERSATIONS_API.assignee)).map((c) => bodyOf(c))).toEqual([
      { userId: 'u2' },
      { userId: null },
    ]);
  });
});
