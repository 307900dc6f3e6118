import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fillApiPath, SENDER_ID_API, type SenderIdApprovalMode, type SenderIdDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter, type FakeAdapter } from '@/test/fake-adapter';
import { renderScreen as renderPage, signInForTest as signIn } from '@/test/render-page';
import SenderIdsPage from './sender-ids-page';

let server: FakeAdapter;
let approval: SenderIdApprovalMode;
let items: SenderIdDto[];
/** The fake server's answer to a request it does not otherwise know (a delete, a create). */
let other: { status: number; data?: unknown; headers?: Record<string, string> } | null;

const item = (id: string, value: string, createdAt: string, extra: Partial<SenderIdDto> = {}) =>
  ({
    id,
    value,
    kind: 'alphanumeric',
    purpose: 'Order updates',
    sampleMessage: 'Your order has shipped.',
    status: 'approved',
    reason: null,
    isDefault: false,
    createdAt,
    decidedAt: createdAt,
    ...extra,
  }) satisfies SenderIdDto;

/** A domain error as the server sends it: the body, and the message in Application-Error. */
const conflict = (message: string) => ({
  status: 409,
  data: { code: 'CONFLICT', message },
  headers: { 'application-error': encodeURIComponent(message) },
});

beforeEach(() => {
  signIn();
  approval = 'manual';
  items = [];
  other = null;
  server = http.defaults.adapter = fakeAdapter((config) => {
    if (config.url === SENDER_ID_API.list && config.method === 'get')
      return { status: 200, data: { items, approval, platformSender: 'Wren' } };
    if (other) return other;
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
    // A sender ID an OTP service uses cannot be deleted (409), so deleting is not "at any time".
    expect(screen.getByText(/delete a sender ID\s+that no OTP service uses/)).toBeInTheDocument();
    expect(screen.queryByText(/delete a sender ID at any time/)).not.toBeInTheDocument();
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

  it('names the sender ID that becomes the default when the default is deleted', async () => {
    const user = userEvent.setup();
    items = [
      item('b', 'Newest', '2024-03-03T10:00:00.000Z', { isDefault: true }),
      item('c', 'Middle', '2024-03-02T10:00:00.000Z'),
      item('a', 'Older', '2024-03-01T10:00:00.000Z'),
      item('d', 'Waiting', '2024-02-01T10:00:00.000Z', { status: 'requested', decidedAt: null }),
    ];
    renderPage(<SenderIdsPage />);
    await user.click(await screen.findByRole('button', { name: 'Delete sender ID Newest' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete sender ID' });
    expect(dialog).toHaveTextContent(
      'Delete Newest? You will no longer be able to send from it, and Older, your oldest approved sender ID, will become the default. This cannot be undone.',
    );
  });

  it('says the platform sender takes over when the last approved default is deleted', async () => {
    const user = userEvent.setup();
    items = [item('a', 'OnlyOne', '2024-03-01T10:00:00.000Z', { isDefault: true })];
    renderPage(<SenderIdsPage />);
    await user.click(await screen.findByRole('button', { name: 'Delete sender ID OnlyOne' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete sender ID' });
    expect(dialog).toHaveTextContent(
      "Delete OnlyOne? You will no longer be able to send from it, and messages that name no sender will go from the platform's shared sender. This cannot be undone.",
    );
  });

  it('shows why a delete was refused (a sender ID an OTP service uses) and keeps the dialog open', async () => {
    const user = userEvent.setup();
    items = [item('a', 'OtpBrand', '2024-03-01T10:00:00.000Z')];
    const message =
      'Sender ID "OtpBrand" is used by the OTP service "Login codes". Choose another sender for it first, then delete this sender ID.';
    other = conflict(message);
    renderPage(<SenderIdsPage />);
    await user.click(await screen.findByRole('button', { name: 'Delete sender ID OtpBrand' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete sender ID' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete sender ID' }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(
      server.calls.some(
        (c) => c.method === 'delete' && c.url === fillApiPath(SENDER_ID_API.item, { id: 'a' }),
      ),
    ).toBe(true);
  });

  it('shows the refusal of the shared sender name under the field', async () => {
    const user = userEvent.setup();
    const message =
      '"Wren" is the platform\'s shared sender ID: every account can already send from it, without a request. Request a name of your own.';
    other = conflict(message);
    renderPage(<SenderIdsPage />);
    await user.click((await screen.findAllByRole('button', { name: 'Request sender ID' }))[0]);
    const field = await screen.findByRole('textbox', { name: /Sender ID/ });
    await user.type(field, 'Wren');
    await user.type(screen.getByRole('textbox', { name: /Purpose/ }), 'Order updates');
    await user.type(screen.getByRole('textbox', { name: /Sample message/ }), 'Your order shipped');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(posts()).toHaveLength(1);
  }, 15_000);
});
