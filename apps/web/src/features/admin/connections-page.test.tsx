import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_API, CONNECTIONS_API, type ConnectionDto, type ConnectionStatusDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter, type FakeAdapter, type FakeReply } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import ConnectionsPage from './pages/connections-page';

let server: FakeAdapter;
let items: ConnectionDto[];
let live: Partial<ConnectionStatusDto>[];
let reply: ((method: string, url: string) => FakeReply | undefined) | undefined;

const conn = (name: string, over: Partial<ConnectionDto> = {}): ConnectionDto => ({
  name,
  host: 'smsc.example.net',
  port: 2775,
  tls: false,
  tlsVerify: true,
  systemId: 'wren',
  systemType: '',
  passwordSet: true,
  binds: 2,
  bindMode: 'trx',
  window: 50,
  tps: 0,
  prefixes: [],
  idNotation: null,
  receiptTimeoutMinutes: null,
  otpReceiptTimeoutMinutes: null,
  acceptd: null,
  unknownState: null,
  onUnanswered: null,
  flapSeconds: null,
  flapWarnAfter: null,
  origin: 'console',
  draining: false,
  paused: false,
  updatedAt: '2026-12-01T10:00:00.000Z',
  ...over,
});

beforeEach(() => {
  signInForTest('owner');
  items = [];
  live = [];
  reply = undefined;
  server = http.defaults.adapter = fakeAdapter((c) => {
    const custom = reply?.(c.method ?? 'get', c.url ?? '');
    if (custom) return custom;
    if (c.url === CONNECTIONS_API.list && (c.method ?? 'get') === 'get')
      return { status: 200, data: { items } };
    if (c.url === ADMIN_API.system) return { status: 200, data: { connections: live } };
    if (c.url?.startsWith('/api/admin/connections/')) return { status: 200, data: items[0] };
    return { status: 404 };
  });
});

const row = async (name: string) => {
  const table = await screen.findByTestId('admin-connections');
  return table.querySelector<HTMLElement>(`tr[data-connection="${name}"]`)!;
};

describe('Admin → Connections', () => {
  it('says when there is no connection', async () => {
    renderScreen(<ConnectionsPage />);
    expect(await screen.findByText('No connections yet')).toBeInTheDocument();
  });

  it('lists each connection with its live binds and last error; the built-in one read only', async () => {
    items = [
      conn('carrier-a', { prefixes: ['+44', '+33'], tls: true, tps: 20, draining: true }),
      conn('simulator', { origin: 'builtin', binds: 1 }),
    ];
    live = [
      {
        worker: 'w1',
        name: 'carrier-a',
        bound: 1,
        binds: 2,
        paused: false,
        keptBinds: null,
        lastError: 'bind refused: ESME_RBINDFAIL',
      },
    ];
    renderScreen(<ConnectionsPage />);
    const a = await row('carrier-a');
    await waitFor(() => expect(within(a).getByTestId('binds')).toHaveTextContent('1 of 2 up'));
    expect(a).toHaveTextContent('smsc.example.net:2775');
    expect(a).toHaveTextContent('TLS');
    expect(a).toHaveTextContent('+44');
    expect(a).toHaveTextContent('20/s');
    expect(a).toHaveTextContent('Draining');
    expect(within(a).getByTestId('last-error')).toHaveTextContent('ESME_RBINDFAIL');
    const sim = await row('simulator');
    expect(sim).toHaveTextContent('default');
    expect(sim).toHaveTextContent('Built-in simulator');
    expect(within(sim).queryByRole('button', { name: 'Edit simulator' })).toBeNull();
  });

  it('edits with a blank password kept (null) and shows the server’s field errors on their fields', async () => {
    items = [conn('carrier-a', { prefixes: ['+44'] })];
    let first = true;
    reply = (method, url) => {
      if (method !== 'put' || url !== '/api/admin/connections/carrier-a') return undefined;
      if (first) {
        first = false;
        return {
          status: 400,
          data: {
            message: 'Invalid',
            errors: { 'prefixes.0': ['carrier-b is already the default connection'] },
          },
        };
      }
      return { status: 200, data: items[0] };
    };
    renderScreen(<ConnectionsPage />);
    await userEvent.click(within(await row('carrier-a')).getByRole('button', { name: 'Edit carrier-a' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit connection “carrier-a”' });
    expect(within(dialog).getByText('Blank keeps the stored password')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAttribute('readonly');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'smaller window');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(
      await within(dialog).findByText('carrier-b is already the default connection'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const puts = server.calls.filter((c) => c.method === 'put');
    expect(puts).toHaveLength(2);
    const body = bodyOf(puts[1]!) as Record<string, unknown>;
    expect(body.password).toBeNull();
    expect(body.prefixes).toEqual(['+44']);
    expect(body.reason).toBe('smaller window');
    expect(body).not.toHaveProperty('name');
  });

  it('deletes only after the confirmation, and says the server’s refusal', async () => {
    items = [conn('carrier-a')];
    const refusal = 'Routes send through carrier-a (uk): take it out of them first';
    // As the server answers: the message in Application-Error (percent-encoded) and the body.
    reply = (method) =>
      method === 'delete'
        ? {
            status: 409,
            headers: { 'application-error': encodeURIComponent(refusal) },
            data: { message: refusal },
          }
        : undefined;
    renderScreen(<ConnectionsPage />);
    await userEvent.click(within(await row('carrier-a')).getByRole('button', { name: 'More for carrier-a' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete connection' });
    expect(server.calls.filter((c) => c.method === 'delete')).toHaveLength(0);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'contract ended');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete connection' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(refusal);
    const del = server.calls.find((c) => c.method === 'delete')!;
    expect(del.url).toBe('/api/admin/connections/carrier-a');
    expect(bodyOf(del)).toEqual({ reason: 'contract ended' });
  });
});
