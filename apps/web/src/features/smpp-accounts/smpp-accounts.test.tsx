import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { SENDER_ID_API, SMPP_ACCOUNTS_API, type SmppAccountDto, type SmppBindDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter, type FakeAdapter, type FakeReply } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import SmppCreatePage from './pages/smpp-create-page';
import SmppDocPage, { smppSamples } from './pages/smpp-doc-page';
import SmppListPage from './pages/smpp-list-page';
import SmppViewPage from './pages/smpp-view-page';

const ID = '6f1c1c3e-0000-4000-8000-000000000001';
const item = SMPP_ACCOUNTS_API.item.replace(':id', ID);

const account = (extra: Partial<SmppAccountDto> = {}): SmppAccountDto => ({
  id: ID,
  systemId: 'acme1',
  name: 'Acme aggregator',
  ipAllowlist: ['203.0.113.0/24'],
  maxBinds: 4,
  bindModes: ['tx', 'rx', 'trx'],
  throughputPerSecond: 50,
  windowSize: 10,
  defaultSender: null,
  idNotation: 'decimal',
  status: 'active',
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
  passwordRotatedAt: null,
  lastBindAt: '2026-12-02T09:00:00.000Z',
  lastBindIp: '203.0.113.7',
  receiptsWaiting: 3,
  receiptsExpired: 1,
  liveBinds: 1,
  ...extra,
});

const bind: SmppBindDto = {
  id: 'b1',
  node: 'api-1',
  mode: 'trx',
  remoteAddress: '203.0.113.7:50123',
  tls: true,
  boundSince: '2026-12-02T09:00:00.000Z',
  windowInUse: 2,
  submitsPerSecond: 12.5,
};

const SERVER = { host: '127.0.0.1', port: 2775, tlsPort: 3550, selfSignedCertificate: true };

let server: FakeAdapter;
let accounts: SmppAccountDto[];
/** Answers for requests the test sets up (method + url), before the defaults. */
let replies: Record<string, FakeReply>;

beforeEach(() => {
  signInForTest('developer');
  accounts = [];
  replies = {};
  server = http.defaults.adapter = fakeAdapter((config) => {
    const key = `${config.method} ${config.url}`;
    if (replies[key]) return replies[key];
    if (config.url === SMPP_ACCOUNTS_API.server) return { status: 200, data: SERVER };
    if (key === `get ${SMPP_ACCOUNTS_API.list}`) return { status: 200, data: { data: accounts } };
    if (key === `get ${item}`) return { status: 200, data: accounts[0] ?? account() };
    if (config.url === SMPP_ACCOUNTS_API.binds.replace(':id', ID))
      return { status: 200, data: { data: [bind], receiptsWaiting: 3, receiptsExpired: 1 } };
    if (config.url === SENDER_ID_API.list) return { status: 200, data: { items: [] } };
    return { status: 404 };
  });
});

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const calls = (method: string, url: string) =>
  server.calls.filter((c) => c.method === method && c.url === url);

const renderView = () =>
  renderScreen(
    <Routes>
      <Route path="/api/smpp/:id" element={<SmppViewPage />} />
      <Route path="/api/smpp" element={<p>The list</p>} />
    </Routes>,
    `/api/smpp/${ID}`,
  );

describe('SMPP accounts list', () => {
  it('explains what SMPP accounts are for when there are none', async () => {
    renderScreen(<SmppListPage />);
    const empty = await screen.findByTestId('smpp-empty');
    expect(empty).toHaveTextContent('No SMPP accounts yet');
    expect(empty).toHaveTextContent(/speaks SMPP rather than HTTP/);
    expect(within(empty).getByRole('link', { name: 'Create SMPP account' })).toHaveAttribute(
      'href',
      '/api/smpp/create',
    );
    expect(await screen.findByTestId('smpp-server-endpoints')).toHaveTextContent('127.0.0.1:3550');
  });

  it('lists system_id, name, status, live binds, receipts and the last bind', async () => {
    accounts = [account(), account({ id: 'x2', systemId: 'shop2', name: 'Shop', status: 'disabled' })];
    renderScreen(<SmppListPage />);
    const row = (await screen.findByText('acme1')).closest('tr')!;
    expect(row).toHaveTextContent('Acme aggregator');
    expect(row).toHaveTextContent('Active');
    expect(within(row).getByText('1 / 4')).toBeInTheDocument();
    expect(row).toHaveTextContent('from 203.0.113.7');
    const other = screen.getByText('shop2').closest('tr')!;
    expect(other).toHaveTextContent('Disabled');
    expect(screen.getByRole('link', { name: 'View acme1' })).toHaveAttribute('href', `/api/smpp/${ID}`);
    expect(screen.queryByTestId('smpp-empty')).not.toBeInTheDocument();
  });

  it('says when the list could not be loaded', async () => {
    replies[`get ${SMPP_ACCOUNTS_API.list}`] = { status: 500, data: 'boom' };
    renderScreen(<SmppListPage />);
    expect(await screen.findByText('Could not load your SMPP accounts')).toBeInTheDocument();
  });
});

describe('creating an SMPP account', () => {
  it('puts the schema’s messages on the fields and sends nothing', async () => {
    const user = userEvent.setup();
    renderScreen(<SmppCreatePage />);
    await user.type(screen.getByRole('textbox', { name: /System ID/ }), 'a!');
    await user.type(screen.getByRole('combobox', { name: /Allowed IP addresses/ }), 'not-an-ip{Enter}');
    for (const mode of ['Transmitter (tx)', 'Receiver (rx)', 'Transceiver (trx)'])
      await user.click(
        screen.getByRole('checkbox', { name: new RegExp(`^${mode.replace(/[()]/g, '\\$&')}`) }),
      );
    const window = screen.getByRole('textbox', { name: /Window/ });
    await user.clear(window);
    await user.click(screen.getByRole('button', { name: 'Create SMPP account' }));
    expect(
      await screen.findByText('3 to 15 letters, digits, dots, dashes or underscores'),
    ).toBeInTheDocument();
    expect(screen.getByText('Name the SMPP account')).toBeInTheDocument();
    expect(screen.getByText(/not-an-ip: Enter an IP address or CIDR/)).toBeInTheDocument();
    expect(screen.getByText('Allow at least one bind mode')).toBeInTheDocument();
    expect(screen.getByText('Enter a number')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /System ID/ })).toHaveAttribute('aria-invalid', 'true');
    expect(calls('post', SMPP_ACCOUNTS_API.list)).toHaveLength(0);
  }, 20_000);

  it('sends the form’s values and shows the password once, with where to bind', async () => {
    const user = userEvent.setup();
    replies[`post ${SMPP_ACCOUNTS_API.list}`] = {
      status: 201,
      data: { account: account({ receiptsWaiting: 0, liveBinds: 0 }), password: 'Ab3dEf7h' },
    };
    renderScreen(
      <Routes>
        <Route path="/api/smpp/create" element={<SmppCreatePage />} />
        <Route path="/api/smpp/:id" element={<p>Viewing the account</p>} />
      </Routes>,
      '/api/smpp/create',
    );
    await user.type(screen.getByRole('textbox', { name: /System ID/ }), 'acme1');
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Acme aggregator');
    await user.type(screen.getByRole('combobox', { name: /Allowed IP addresses/ }), '203.0.113.0/24{Enter}');
    await user.click(screen.getByRole('checkbox', { name: /^Receiver \(rx\)/ }));
    await user.click(screen.getByRole('radio', { name: 'Hex (1E240)' }));
    await user.click(screen.getByRole('button', { name: 'Create SMPP account' }));
    expect(await screen.findByTestId('smpp-password')).toHaveTextContent('Ab3dEf7h');
    expect(screen.getByText('Copy the SMPP password now')).toBeInTheDocument();
    expect(await screen.findByTestId('smpp-server-endpoints')).toHaveTextContent('127.0.0.1:2775');
    expect(bodyOf(calls('post', SMPP_ACCOUNTS_API.list)[0]!)).toEqual({
      systemId: 'acme1',
      name: 'Acme aggregator',
      ipAllowlist: ['203.0.113.0/24'],
      maxBinds: 2,
      bindModes: ['tx', 'trx'],
      throughputPerSecond: 50,
      windowSize: 10,
      defaultSender: null,
      idNotation: 'hex',
    });
    // Once: leaving the password goes to the account, and nothing shows it again.
    await user.click(screen.getByRole('button', { name: 'I have copied it: view the account' }));
    expect(await screen.findByText('Viewing the account')).toBeInTheDocument();
    expect(screen.queryByText('Ab3dEf7h')).not.toBeInTheDocument();
  }, 20_000);

  it('shows a taken system_id under its field', async () => {
    const user = userEvent.setup();
    const message = 'The system_id "acme1" is taken; choose another';
    replies[`post ${SMPP_ACCOUNTS_API.list}`] = {
      status: 409,
      data: { code: 'CONFLICT', message },
      headers: { 'application-error': encodeURIComponent(message) },
    };
    renderScreen(<SmppCreatePage />);
    await user.type(screen.getByRole('textbox', { name: /System ID/ }), 'acme1');
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Create SMPP account' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /System ID/ })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('smpp-password')).not.toBeInTheDocument();
  }, 20_000);
});

describe('an SMPP account’s page', () => {
  it('shows the settings and the live binds with receipts waiting and expired', async () => {
    accounts = [account()];
    renderView();
    const table = await screen.findByRole('table', { name: 'Live binds' });
    const row = within(table).getByText('203.0.113.7:50123').closest('tr')!;
    expect(row).toHaveTextContent('Transceiver');
    expect(row).toHaveTextContent('Yes');
    expect(row).toHaveTextContent('2 / 10');
    expect(row).toHaveTextContent('12.5');
    expect(screen.getByTestId('smpp-receipts')).toHaveTextContent('Receipts waiting: 3');
    expect(screen.getByTestId('smpp-receipts')).toHaveTextContent('Receipts expired: 1');
    expect(screen.getByText('203.0.113.0/24')).toBeInTheDocument();
  });

  it('rotates the password only after the confirm, and shows the new one once', async () => {
    const user = userEvent.setup();
    const rotate = SMPP_ACCOUNTS_API.rotate.replace(':id', ID);
    replies[`post ${rotate}`] = { status: 200, data: { account: account(), password: 'Nw9pQr2s' } };
    renderView();
    await user.click(await screen.findByRole('button', { name: 'Rotate password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate password' });
    expect(dialog).toHaveTextContent(/current one stops working at once/);
    // Cancel has the focus: Enter does not rotate.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('post', rotate)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Rotate password' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Rotate password' })).getByRole('button', {
        name: 'Rotate password',
      }),
    );
    expect(await screen.findByTestId('smpp-password')).toHaveTextContent('Nw9pQr2s');
    expect(calls('post', rotate)).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByText('Nw9pQr2s')).not.toBeInTheDocument();
  }, 20_000);

  it('disables after the confirm, and shows a refusal in the dialog', async () => {
    const user = userEvent.setup();
    const disable = SMPP_ACCOUNTS_API.disable.replace(':id', ID);
    replies[`post ${disable}`] = {
      status: 500,
      data: 'down',
      headers: { 'application-error': 'The server is busy' },
    };
    renderView();
    await user.click(await screen.findByRole('button', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable SMPP account' });
    expect(dialog).toHaveTextContent(/every bind is refused \(ESME_RBINDFAIL\)/);
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await within(dialog).findByText('The server is busy')).toBeInTheDocument();
    expect(calls('post', disable)).toHaveLength(1);

    replies[`post ${disable}`] = { status: 200, data: account({ status: 'disabled' }) };
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls('post', disable)).toHaveLength(2));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Disable SMPP account' })).not.toBeInTheDocument(),
    );
  }, 20_000);

  it('offers Enable for a disabled account', async () => {
    const user = userEvent.setup();
    accounts = [account({ status: 'disabled' })];
    const enable = SMPP_ACCOUNTS_API.enable.replace(':id', ID);
    replies[`post ${enable}`] = { status: 200, data: account() };
    renderView();
    expect(await screen.findByText('Disabled')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disable' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable SMPP account' });
    await user.click(within(dialog).getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(calls('post', enable)).toHaveLength(1));
  }, 20_000);

  it('deletes only after the destructive confirm, then goes back to the list', async () => {
    const user = userEvent.setup();
    replies[`delete ${item}`] = { status: 204 };
    renderView();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete SMPP account' });
    expect(dialog).toHaveTextContent(/This cannot be undone/);
    expect(calls('delete', item)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete SMPP account' }));
    expect(await screen.findByText('The list')).toBeInTheDocument();
    expect(calls('delete', item)).toHaveLength(1);
  }, 20_000);

  it('saves edited settings with PATCH (no system_id)', async () => {
    const user = userEvent.setup();
    replies[`patch ${item}`] = { status: 200, data: account({ name: 'Renamed' }) };
    renderView();
    await user.click(await screen.findByRole('button', { name: 'Edit settings' }));
    const name = screen.getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Renamed');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(calls('patch', item)).toHaveLength(1));
    const sent = bodyOf(calls('patch', item)[0]!) as Record<string, unknown>;
    expect(sent.name).toBe('Renamed');
    expect(sent).not.toHaveProperty('systemId');
  }, 20_000);

  it('says an unknown account does not exist', async () => {
    replies[`get ${item}`] = { status: 404, data: { code: 'NOT_FOUND', message: 'SMPP account not found' } };
    renderView();
    expect(await screen.findByTestId('smpp-load-error')).toHaveTextContent(
      'This SMPP account does not exist (or was deleted)',
    );
  });
});

describe('the SMPP documentation page', () => {
  it('gives the host and ports, the receipt format and the command_status values', async () => {
    renderScreen(<SmppDocPage />);
    expect(await screen.findByTestId('smpp-server-endpoints')).toHaveTextContent('Plain TCP: 127.0.0.1:2775');
    expect(screen.getByTestId('smpp-server-endpoints')).toHaveTextContent('TLS: 127.0.0.1:3550');
    expect(screen.getByText(/clients must not verify it/)).toBeInTheDocument();
    expect(screen.getByText(/id:1E240 sub:001 dlvrd:001 submit date:/)).toBeInTheDocument();
    const submits = screen.getByRole('table', { name: 'Submit errors' });
    const row = (text: string) => within(submits).getByText(text).closest('tr')!;
    expect(row('Insufficient balance')).toHaveTextContent('ESME_RSUBMITFAIL0x00000045');
    expect(row('Over the throughput limit (or an account rate limit)')).toHaveTextContent(
      'ESME_RTHROTTLED0x00000058',
    );
    expect(row('Sender ID not approved for the account')).toHaveTextContent('ESME_RINVSRCADR0x0000000A');
    const binds = screen.getByRole('table', { name: 'Bind errors' });
    expect(within(binds).getByText('Wrong password').closest('tr')!).toHaveTextContent('0x0000000E');
  });

  it('samples the TLS port where it listens, and plain TCP where TLS is off', () => {
    const tls = smppSamples({
      host: 'smpp.example.com',
      port: 2775,
      tlsPort: 3550,
      selfSignedCertificate: false,
    });
    expect(tls.node).toContain("url: 'ssmpp://smpp.example.com:3550'");
    expect(tls.python).toContain("Client('smpp.example.com', 2775)");
    const plain = smppSamples({ host: '127.0.0.1', port: 2776, tlsPort: null, selfSignedCertificate: false });
    expect(plain.node).toContain("smpp.connect({ url: 'smpp://127.0.0.1:2776' });");
    expect(plain.node).not.toContain('ssmpp://');
  });
});
