import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter, type FakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest, TEST_USER } from '@/test/render-page';
import UpdateProfilePage from './pages/update-profile-page';

let server: FakeAdapter;
beforeEach(() => {
  server = http.defaults.adapter = fakeAdapter((config) => {
    if (config.url === API.me && config.method?.toUpperCase() === 'PATCH')
      return { status: 200, data: { ...TEST_USER, ...(bodyOf(config) as object) } };
    return { status: 404 };
  });
});

describe('update profile page', () => {
  it('saves the details without a language field and says so', async () => {
    signInForTest();
    renderScreen(<UpdateProfilePage />, '/profile/update');
    const name = screen.getByRole('textbox', { name: /Full name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada King');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(server.calls.some((c) => c.method?.toUpperCase() === 'PATCH')).toBe(true));
    const patch = server.calls.find((c) => c.method?.toUpperCase() === 'PATCH');
    expect(bodyOf(patch!)).toEqual({
      name: 'Ada King',
      email: TEST_USER.email,
      phone: TEST_USER.phone,
      timezone: TEST_USER.timezone,
    });
    expect(await screen.findByText('Your profile has been updated.')).toBeTruthy();
  });
});
