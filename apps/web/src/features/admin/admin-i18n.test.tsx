import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_TOP_UPS_API, type AdminAccountDetail, type AdminTopUpDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { translate } from '@/lib/i18n';
import { applyLocale } from '@/lib/i18n-runtime';
import { fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import { AccountTreeCard } from './components/account-tree-card';
import { rich } from './components/common';
import TopUpsPage from './pages/top-ups-page';
import { toPrices } from './rate-plan-rows';

/** The admin pages in another language (issue 47 item 4): strings, sentences with elements, helpers. */
const topUp: AdminTopUpDto = {
  id: '00000000-0000-4000-8000-000000000001',
  provider: 'manual',
  status: 'pending',
  amountMinor: 2500,
  currency: 'USD',
  note: null,
  decisionNote: null,
  requestedBy: 'Ada',
  createdAt: '2026-11-30T10:00:00.000Z',
  decidedAt: null,
  accountId: '00000000-0000-4000-8000-0000000000aa',
  accountName: 'Acme',
  decidedBy: null,
};

beforeEach(() => {
  signInForTest('owner');
  http.defaults.adapter = fakeAdapter((c) =>
    c.url === ADMIN_TOP_UPS_API.list ? { status: 200, data: { items: [topUp] } } : { status: 404 },
  );
});
afterEach(async () => {
  await applyLocale('en-US');
});

describe('admin in other languages', () => {
  it('rich() keeps the elements where the translation puts them', async () => {
    const parts = { who: <b key="w">Acme</b> };
    expect(rich(translate, 'Since {{who}}: done', parts)).toHaveLength(3);
    const child = (account: AdminAccountDetail) => renderScreen(<AccountTreeCard account={account} />);
    const account = {
      parent: { id: 'p1', name: 'Reseller' },
      subAccounts: [],
    } as unknown as AdminAccountDetail;
    await applyLocale('fr');
    child(account);
    const card = screen.getByLabelText('Sous-comptes');
    expect(card).toHaveTextContent('Sous-compte de Reseller, qui gère son solde et fixe ses tarifs.');
    expect(within(card).getByRole('link', { name: 'Reseller' })).toBeInTheDocument();
  });

  it('shows the top-up requests and their confirmation in Spanish and Arabic', async () => {
    await applyLocale('es');
    const { unmount } = renderScreen(<TopUpsPage />);
    const table = await screen.findByTestId('admin-top-ups');
    expect(screen.getByText('Solicitudes de recarga')).toBeInTheDocument();
    expect(within(table).getByText('por Ada')).toBeInTheDocument();
    await userEvent.click(within(table).getByRole('button', { name: 'Aprobar…' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('¿Abonar');
    unmount();
    await applyLocale('ar');
    renderScreen(<TopUpsPage />);
    expect(await screen.findByText('طلبات الشحن')).toBeInTheDocument();
  });

  it('says a bad price row in the current language', async () => {
    await applyLocale('pt-BR');
    expect(toPrices([{ key: 1, prefix: '44', price: '0.05', countryName: null }])).toEqual({
      error: 'Linha 1: um prefixo é + e dígitos, ex.: +44',
    });
  });
});
