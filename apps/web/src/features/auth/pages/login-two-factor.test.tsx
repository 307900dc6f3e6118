import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { API, ErrorCode, TWO_FACTOR_API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { STORAGE_KEYS } from '@/lib/session';
import { bodyOf, fakeAdapter, type FakeAdapter } from '@/test/fake-adapter';
import { renderScreen, TEST_USER } from '@/test/render-page';
import LoginPage from './login-page';

const user = TEST_USER;
let server: FakeAdapter;
let wrongFirst: boolean;

beforeEach(() => {
  localStorage.clear();
  wrongFirst = true;
  server = http.defaults.adapter = fakeAdapter((config) => {
    if (config.url === API.login) {
      return {
        status: 200,
        data: { twoFactor: 'code', challenge: 'ch1', expiresAt: '2026-01-01T00:05:00.000Z' },
      };
    }
    if (config.url === TWO_FACTOR_API.verify) {
      if (wrongFirst) {
        wrongFirst = false;
        return {
          status: 401,
          headers: { 'application-error': 'Incorrect code. Try again.' },
          data: { code: ErrorCode.INVALID_CREDENTIALS, message: 'Incorrect code. Try again.' },
        };
      }
      return { status: 200, data: { user, accessToken: 'at', refreshToken: 'rt' } };
    }
    return { status: 404 };
  });
});

describe('sign-in: the two-factor step (issue 39 item 3)', () => {
  it('asks for a code after the password, stores nothing until the code is right', async () => {
    const u = userEvent.setup();
    renderScreen(<LoginPage />, '/auth/login');
    await u.type(screen.getByLabelText(/Username/), 'ada');
    await u.type(screen.getByLabelText(/^Password/), 'correct horse 42');
    await u.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();

    await u.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      screen.getByText('Enter the 6-digit code from your authenticator app', {
        selector: '.mantine-TextInput-error',
      }),
    ).toBeInTheDocument();
    await u.type(screen.getByRole('textbox', { name: /^Code/ }), '123456');
    await u.click(screen.getByLabelText('Remember this device for 30 days'));
    await u.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Incorrect code. Try again.')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();

    await u.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('at'));
    const verify = server.calls.filter((c) => c.url === TWO_FACTOR_API.verify);
    expect(bodyOf(verify[1]!)).toEqual({ challenge: 'ch1', code: '123456', rememberDevice: true });
  });

  it('takes a recovery code instead, and goes back to the password step', async () => {
    const u = userEvent.setup();
    wrongFirst = false;
    renderScreen(<LoginPage />, '/auth/login');
    await u.type(screen.getByLabelText(/Username/), 'ada');
    await u.type(screen.getByLabelText(/^Password/), 'correct horse 42');
    await u.click(screen.getByRole('button', { name: 'Sign in' }));
    await u.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    await u.type(screen.getByRole('textbox', { name: /Recovery code/ }), 'abcd-efgh-jkmn');
    await u.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('at'));
    const verify = server.calls.find((c) => c.url === TWO_FACTOR_API.verify)!;
    expect(bodyOf(verify)).toEqual({
      challenge: 'ch1',
      recoveryCode: 'abcd-efgh-jkmn',
      rememberDevice: false,
    });
  });
});
