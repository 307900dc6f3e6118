import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { TWO_FACTOR_API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { STORAGE_KEYS } from '@/lib/session';
import { bodyOf, fakeAdapter, type FakeAdapter } from '@/test/fake-adapter';
import { accessTokenFor, renderScreen, signInForTest, TEST_USER } from '@/test/render-page';
import AcceptInvitePage from './pages/accept-invite-page';

const original = http.defaults.adapter;
let server: FakeAdapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const JOINED = { user: TEST_USER, accessToken: accessTokenFor('sender'), refreshToken: 'rt-new' };

beforeEach(() => {
  localStorage.clear();
  server = http.defaults.adapter = fakeAdapter((config) => {
    if (config.method?.toUpperCase() === 'GET' && config.url === '/api/invites/tok') {
      return {
        status: 200,
        data: {
          accountName: 'Acme',
          role: 'sender',
          emailMasked: 'a***@example.com',
          existingUser: true,
          expiresAt: '2030-01-01T00:00:00.000Z',
        },
      };
    }
    if (config.url === '/api/invites/tok/accept') {
      return {
        status: 200,
        data: { twoFactor: 'enroll', challenge: 'ch-acme', expiresAt: '2030-01-01T00:05:00.000Z' },
      };
    }
    if (config.url === TWO_FACTOR_API.signInEnrollStart) {
      return {
        status: 200,
        data: {
          secret: 'JBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/x',
          qrDataUrl: 'data:image/png;base64,',
        },
      };
    }
    if (config.url === TWO_FACTOR_API.signInEnrollConfirm) {
      return {
        status: 200,
        data: { ...JOINED, recoveryCodes: Array.from({ length: 10 }, (_, i) => `code-${i}`) },
      };
    }
    return { status: 404 };
  });
});

// Issue 39: an invite into an account that requires two-factor, accepted while signed in without
// it, goes through enrollment first (as sign-in does): no session for the account before.
describe('accepting an invite into an account that requires two-factor', () => {
  it('shows the enrollment step, stores the new session only once enrolled', async () => {
    signInForTest('owner');
    const before = localStorage.getItem(STORAGE_KEYS.accessToken);
    const u = userEvent.setup();
    renderScreen(
      <Routes>
        <Route path="/invite/:token" element={<AcceptInvitePage />} />
        <Route path="/dashboard" element={<p>Dashboard here</p>} />
      </Routes>,
      '/invite/tok',
    );
    await u.click(await screen.findByRole('button', { name: 'Accept as ada' }));
    expect(await screen.findByRole('heading', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(screen.queryByText('Dashboard here')).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe(before);

    await u.click(screen.getByRole('button', { name: 'Set up two-factor' }));
    await u.type(await screen.findByRole('textbox', { name: /Code from the app/ }), '123456');
    await u.click(screen.getByRole('button', { name: /Turn on|Confirm|Verify/ }));
    // The confirmation ends the old session: the new one is adopted at once, before the codes.
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe(JOINED.accessToken));
    const confirm = server.calls.find((c) => c.url === TWO_FACTOR_API.signInEnrollConfirm)!;
    expect(bodyOf(confirm)).toEqual({ challenge: 'ch-acme', code: '123456' });
    expect(await screen.findByText('code-0')).toBeInTheDocument();
    await u.click(screen.getByLabelText('I have saved these codes somewhere safe'));
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Dashboard here')).toBeInTheDocument();
  });
});
