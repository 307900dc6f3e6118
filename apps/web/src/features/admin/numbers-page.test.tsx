import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_API, CONNECTIONS_API, NUMBERS_API, type NumberDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter, type FakeAdapter, type FakeReply } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import NumbersPage from './pages/numbers-page';

let server: FakeAdapter;
let items: NumberDto[];
let reply: ((method: string, url: string) => FakeReply | undefined) | undefined;

const num = (number: string, over: Partial<NumberDto> = {}): NumberDto => ({
  id: `id-${number}`,
  number,
  kind: 'long',
  country: 'GB',
  connection: null,
  monthlyPriceMinor: 250,
  accountId: null,
  accountName: null,
  assignedAt: null,
  paidUntil: null,
  pastDueSince: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  ...over,
});

beforeEach(() => {
  signInForTest('owner');
  items = [];
  reply = undefined;
  server = http.defaults.adapter = fakeAdapter((c) => {
    const custom = reply?.(c.method ?? 'get', c.url ?? '');
    if (custom) return custom;
    if (c.url === NUMBERS_API.adminList && (c.method ?? 'get') === 'get')
      return { status: 200, data: { items, nextCursor: null, currency: 'GBP' } };
    if (c.url === CONNECTIONS_API.list) return { status: 200, data: { items: [] } };
    if (c.url === ADMIN_API.accounts)
      return {
        status: 200,
        data: {
          items: [{ id: 'acc-1', name: 'Acme Clinics', username: 'acme', currency: 'GBP' }],
          nextCursor: null,
        },
      };
    return { status: 404 };
  });
});

const row = async (number: string) => {
  const table = await screen.findByTestId('admin-numbers');
  return table.querySelector<HTMLElement>(`tr[data-number="${number}"]`)!;
};

describe('Admin → Numbers', () => {
  it('says when the inventory is empty', async () => {
    renderScreen(<NumbersPage />);
    expect(await screen.findByText('No numbers yet')).toBeInTheDocument();
  });

  it('lists free and assigned numbers with price, account and a past-due mark', async () => {
    items = [
      num('+447700900001'),
      num('+447700900002', {
        accountId: 'acc-1',
        accountName: 'Acme Clinics',
        assignedAt: '2026-11-01T10:00:00.000Z',
        paidUntil: '2026-12-01T10:00:00.000Z',
        pastDueSince: '2026-12-01T11:00:00.000Z',
      }),
      num('72345', { kind: 'short', country: 'US', monthlyPriceMinor: 50_000 }),
    ];
    renderScreen(<NumbersPage />);
    const free = await row('+447700900001');
    expect(free).toHaveTextContent('Free');
    expect(free).toHaveTextContent('£2.50');
    expect(within(free).getByRole('button', { name: 'Assign' })).toBeInTheDocument();
    const taken = await row('+447700900002');
    expect(taken).toHaveTextContent('Acme Clinics');
    expect(taken).toHaveTextContent('Past due');
    expect(within(taken).getByRole('button', { name: 'Release' })).toBeInTheDocument();
    expect(await row('72345')).toHaveTextContent('Short code');
  });

  it('assigns to the account chosen, and says a refusal (a short balance) in the dialog', async () => {
    items = [num('+447700900001')];
    let first = true;
    reply = (method, url) => {
      if (method !== 'post' || url !== '/api/admin/numbers/id-%2B447700900001/assignment') return undefined;
      if (first) {
        first = false;
        return {
          status: 402,
          data: { code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance: this costs £2.50' },
        };
      }
      return { status: 200, data: num('+447700900001', { accountId: 'acc-1', accountName: 'Acme Clinics' }) };
    };
    renderScreen(<NumbersPage />);
    await userEvent.click(within(await row('+447700900001')).getByRole('button', { name: 'Assign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign +447700900001' });
    expect(dialog).toHaveTextContent('The account is charged £2.50 now and every month after');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByText('Choose an account')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Account' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Acme Clinics (acme)' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(dialog).toHaveTextContent('Insufficient balance: this costs £2.50'), {
      timeout: 3000,
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const posts = server.calls.filter((c) => c.method === 'post');
    expect(posts.map((p) => bodyOf(p))).toEqual([{ accountId: 'acc-1' }, { accountId: 'acc-1' }]);
  });

  it('adds a number and puts the server’s field errors on their fields', async () => {
    let first = true;
    reply = (method, url) => {
      if (method !== 'post' || url !== NUMBERS_API.adminList) return undefined;
      if (first) {
        first = false;
        return {
          status: 400,
          data: { message: 'Invalid', errors: { number: ['+447700900001 is already in the inventory'] } },
        };
      }
      return { status: 201, data: num('+447700900009') };
    };
    renderScreen(<NumbersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add number' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Number' }), '+447700900001');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Country' }));
    await userEvent.click(await screen.findByRole('option', { name: 'United Kingdom (GB)' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Monthly price (GBP)' }), 'two');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add number' }));
    expect(
      await within(dialog).findByText('Give the monthly price as an amount, e.g. 2.50'),
    ).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Monthly price (GBP)' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Monthly price (GBP)' }), '2.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add number' }));
    expect(await within(dialog).findByText('+447700900001 is already in the inventory')).toBeInTheDocument();
    const sent = bodyOf(server.calls.filter((c) => c.method === 'post')[0]!);
    expect(sent).toEqual({
      number: '+447700900001',
      kind: 'long',
      country: 'GB',
      connection: null,
      monthlyPriceMinor: 250,
    });
  });
});
