import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { ACCOUNT_ROLES, roleCan, SMPP_ACCOUNTS_API } from '@wren/contracts';
import { gated } from '@/app/permission-gate';
import { paths } from '@/config/paths';
import { http } from '@/lib/http/client';
import { fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import SmppCreatePage from './pages/smpp-create-page';
import SmppDocPage from './pages/smpp-doc-page';
import SmppListPage from './pages/smpp-list-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const SERVER = { host: '127.0.0.1', port: 2775, tlsPort: 3550, selfSignedCertificate: true };

// Issue 37 + 39: the SMPP pages are developer:manage's (as the server's routes are); any other role
// sees "Your role (X) can't …" and the pages ask the server nothing.
describe.each(ACCOUNT_ROLES)('the SMPP pages as %s', (role) => {
  const may = roleCan(role, 'developer:manage');

  it(
    may ? 'shows the list, the create form and the docs' : 'shows the no-permission state and asks nothing',
    async () => {
      signInForTest(role);
      const server = (http.defaults.adapter = fakeAdapter((config) => {
        if (config.url === SMPP_ACCOUNTS_API.server) return { status: 200, data: SERVER };
        if (config.url === SMPP_ACCOUNTS_API.list) return { status: 200, data: { data: [] } };
        return { status: 200, data: { items: [] } };
      }));
      const List = gated(SmppListPage, paths.smpp.list.permission);
      const Create = gated(SmppCreatePage, paths.smpp.create.permission);
      const Doc = gated(SmppDocPage, paths.smpp.doc.permission);
      renderScreen(
        <>
          <List />
          <Create />
          <Doc />
        </>,
      );
      if (may) {
        expect(await screen.findByText('No SMPP accounts yet')).toBeInTheDocument();
        expect(screen.getByRole('form', { name: 'New SMPP account' })).toBeInTheDocument();
        expect(screen.getByRole('heading', { name: 'Delivery receipts' })).toBeInTheDocument();
        expect(screen.queryByTestId('no-permission')).not.toBeInTheDocument();
      } else {
        expect(screen.getAllByTestId('no-permission')).toHaveLength(3);
        expect(screen.queryByText('No SMPP accounts yet')).not.toBeInTheDocument();
        expect(server.calls.filter((c) => c.url?.startsWith('/api/smpp'))).toHaveLength(0);
      }
    },
  );
});
