import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { formatDateTime } from './format';
import { currentLocale } from './i18n';
import { applyLocale } from './i18n-runtime';
import { formatMoney } from './money';
import { showToast } from './toast';
import { StatCards } from '@/features/dashboard/components/stat-cards';
import { Sidebar } from '@/app/layout/sidebar';
import { renderScreen, signInForTest } from '@/test/render-page';

afterEach(async () => {
  await applyLocale('en-US');
});

describe('the app in another language', () => {
  it('formats dates and money in the chosen locale, and English as before', async () => {
    const at = '2026-11-29T14:05:09Z';
    expect(formatDateTime(at, { timeZone: 'UTC' })).toBe('29 Nov 2026, 14:05');
    expect(formatMoney(1234, 'USD')).toBe('$12.34');
    await applyLocale('es');
    expect(currentLocale()).toBe('es');
    expect(formatDateTime(at, { timeZone: 'UTC' })).toMatch(/^29 nov 2026, 14:05$/);
    expect(formatMoney(1234, 'USD')).toMatch(/^12,34\s*US\$$/);
    await applyLocale('fr');
    expect(formatDateTime(at, { timeZone: 'UTC', seconds: true })).toMatch(/29 nov\.? 2026.*14:05:09/);
  });

  it('sets the page language and direction: Arabic is right-to-left', async () => {
    await applyLocale('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    await applyLocale('pt-BR');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('shows the menu in Spanish', async () => {
    await applyLocale('es');
    signInForTest();
    renderScreen(<Sidebar />, '/dashboard');
    expect(await screen.findByText('Panel')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Menú principal' })).toBeTruthy();
    expect(screen.getByText('Mensajería')).toBeTruthy();
  });

  it('translates toasts and the dashboard figures, placeholders filled', async () => {
    await applyLocale('fr');
    renderScreen(
      <StatCards
        figures={
          {
            balance: { balanceMinor: 500, currency: 'USD' },
            deliveryStatus: undefined,
            performance: undefined,
          } as unknown as Parameters<typeof StatCards>[0]['figures']
        }
        sees={{ balance: true, delivery: false }}
      />,
      '/dashboard',
    );
    expect(screen.getByText('Solde')).toBeTruthy();
    expect(screen.getByText('Disponible pour l’envoi')).toBeTruthy();
    showToast('success', 'Connected to server!');
    expect(await screen.findByText('Connecté au serveur !')).toBeTruthy();
    expect(screen.getByText('Terminé')).toBeTruthy();
  });
});
