import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { ACCOUNT_ROLES, roleCan, SENDER_ID_API, TEMPLATES_API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import SingleSmsPage from './pages/single-sms-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

// Issue 39: the send page asks only for what the role may read: a developer (messages:send, no
// sender-ids:read or templates:read) gets no 403s from it, no saved-messages menu and no link
// to request a sender ID (sender-ids:manage's, which a sender lacks too).
describe.each(ACCOUNT_ROLES.filter((r) => roleCan(r, 'messages:send')))('single SMS as %s', (role) => {
  it('asks for sender IDs and saved messages only with their read permission', async () => {
    signInForTest(role);
    const server = (http.defaults.adapter = fakeAdapter((config) => {
      if (config.url === SENDER_ID_API.list) return { status: 200, data: { items: [] } };
      if (config.url === TEMPLATES_API.list) return { status: 200, data: { items: [] } };
      return { status: 200, data: { approval: 'auto', platformSender: 'Wren' } };
    }));
    renderScreen(<SingleSmsPage />);
    expect(await screen.findByRole('textbox', { name: /Recipients|To|Phone/ })).toBeInTheDocument();
    await waitFor(() => expect(server.calls.length).toBeGreaterThan(0));
    const asked = (url: string) => server.calls.some((c) => c.url === url);
    expect(asked(SENDER_ID_API.list)).toBe(roleCan(role, 'sender-ids:read'));
    expect(asked(TEMPLATES_API.list)).toBe(roleCan(role, 'templates:read'));
    expect(!!screen.queryByRole('button', { name: 'Insert template' })).toBe(roleCan(role, 'templates:read'));
    expect(!!screen.queryByRole('link', { name: 'Request a sender ID' })).toBe(
      roleCan(role, 'sender-ids:manage'),
    );
  });
});
