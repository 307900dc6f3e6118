import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SENDER_ID_API, type SenderIdApprovalMode } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter, type FakeAdapter } from '@/test/fake-adapter';
import { renderScreen as renderPage, signInForTest as signIn } from '@/test/render-page';
import SenderIdsPage from './sender-ids-page';

let server: FakeAdapter;
let approval: SenderIdApprovalMode;

beforeEach(() => {
  signIn();
  approval = 'manual';
  server = http.defaults.adapter = fakeAdapter((config) => {
    if (config.url === SENDER_ID_API.list && config.method === 'get')
      return { status: 200, data: { items: [], approval } };
    if (config.url === SENDER_ID_API.list) return { status: 201, data: {} };
    return { status: 404 };
  });
});

const posts = () => server.calls.filter((c) => c.url === SENDER_ID_API.list && c.method === 'post');

describe('Sender ID page', () => {
  it('says requests are checked by the team only when approval is manual', async () => {
    renderPage(<SenderIdsPage />);
    expect(await screen.findByText(/checked by our team/)).toBeInTheDocument();
    expect(screen.queryByText(/approved as soon as you request it/)).not.toBeInTheDocument();
  });

  it('says a request is approved at once when approval is automatic', async () => {
    approval = 'auto';
    renderPage(<SenderIdsPage />);
    expect(await screen.findByText(/approved as soon as you request it/)).toBeInTheDocument();
    expect(screen.queryByText(/checked by our team/)).not.toBeInTheDocument();
    expect(screen.queryByText(/business day/)).not.toBeInTheDocument();
  });

  it('applies the server’s character rules in the form, explains them, and sends nothing bad', async () => {
    const user = userEvent.setup();
    renderPage(<SenderIdsPage />);
    await user.click((await screen.findAllByRole('button', { name: 'Request sender ID' }))[0]);
    const field = await screen.findByRole('textbox', { name: /Sender ID/ });
    expect(screen.getByTestId('sender-id-rules')).toHaveTextContent(/at least one letter/);
    expect(screen.getByTestId('sender-id-rules')).toHaveTextContent(/emoji/);

    await user.click(field);
    await user.paste("Nadia's Shop! 🌻");
    expect(
      await screen.findByText(
        'A sender ID can use only letters, digits, spaces and common punctuation; remove "🌻"',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: /Purpose/ }));
    await user.paste('Order updates');
    await user.click(screen.getByRole('textbox', { name: /Sample message/ }));
    await user.paste('Your order shipped');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(posts()).toHaveLength(0);

    await user.clear(field);
    await user.paste('Łukasz Shop');
    expect(await screen.findByText(/remove "Ł"/)).toBeInTheDocument();
  }, 15_000);
});
