import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { API } from '@wren/contracts';
import { LocaleSync } from '@/app/locale-sync';
import { Sidebar } from '@/app/layout/sidebar';
import { http } from '@/lib/http/client';
import { applyLocale } from '@/lib/i18n-runtime';
import { getUser } from '@/lib/session';
import { useCurrentUser } from '@/lib/use-session';
import { bodyOf, fakeAdapter, type FakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest, TEST_USER } from '@/test/render-page';
import { LanguagePicker } from './components/language-picker';

let server: FakeAdapter;
beforeEach(() => {
  server = http.defaults.adapter = fakeAdapter((config) => {
    if (config.url === API.me && config.method?.toUpperCase() === 'PATCH')
      return { status: 200, data: { ...TEST_USER, ...(bodyOf(config) as object) } };
    return { status: 404 };
  });
});
afterEach(async () => {
  await applyLocale('en-US');
});

function Screen() {
  const user = useCurrentUser();
  return (
    <>
      <LocaleSync />
      <Sidebar />
      {user && <LanguagePicker user={user} />}
    </>
  );
}

describe('language picker', () => {
  it('saves the language with the profile and the app switches to it, Arabic right-to-left', async () => {
    signInForTest();
    renderScreen(<Screen />, '/profile/update');
    expect(screen.getByText('Dashboard')).toBeTruthy();
    await userEvent.click(screen.getByRole('combobox', { name: 'Language' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Español' }));
    await waitFor(() => expect(server.calls.some((c) => c.method?.toUpperCase() === 'PATCH')).toBe(true));
    const patch = server.calls.find((c) => c.method?.toUpperCase() === 'PATCH');
    expect([patch?.url, bodyOf(patch!)]).toEqual([API.me, { locale: 'es' }]);
    // The stored user now says es: the menu follows.
    expect(await screen.findByText('Panel')).toBeTruthy();
    expect(getUser()?.locale).toBe('es');
    await userEvent.click(screen.getByRole('combobox', { name: 'Idioma' }));
    await userEvent.click(await screen.findByRole('option', { name: 'العربية' }));
    expect(await screen.findByText('لوحة التحكم')).toBeTruthy();
    expect(document.documentElement.dir).toBe('rtl');
  });
});
