import { STRIPE_WEBHOOK_PATH } from '@wren/contracts';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi, type Mock } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { joinAs } from '../members/test-fixtures';
import type { PaymentProvider } from './payment-provider';
import { createStripeProvider } from './stripe-provider';

/**
 * Stripe Checkout top-ups offline (issue 47 item 1), through the real HTTP server and PostgreSQL:
 * only the outbound session creation is mocked (the provider interface); every webhook is signed
 * with stripe.webhooks.generateTestHeaderString and verified by the server's constructEvent.
 */
const SECRET = 'whsec_test_0123456789abcdef';
let server: TestServer;
let owner: ApiClient;
let accountId: string;
let sessions = 0;
let createCheckout: Mock<PaymentProvider['createCheckout']>;
let eventSeq = 0;

beforeAll(async () => {
  server = await startServer({ STRIPE_SECRET_KEY: 'sk_test_wren0123456789', STRIPE_WEBHOOK_SECRET: SECRET });
  const provider = server.ctx.services.topUps.provider!;
  createCheckout = vi.fn<PaymentProvider['createCheckout']>(async () => {
    sessions += 1;
    return { sessionId: `cs_test_${sessions}`, url: `https://checkout.stripe.com/c/pay/cs_test_${sessions}` };
  });
  vi.spyOn(provider, 'createCheckout').mockImplementation(createCheckout);
  owner = server.client();
  accountId = (await owner.register()).user.accountId;
});
afterAll(async () => {
  await server?.close();
});

const balance = async () =>
  Number(
    (
      await server.ctx.db
        .selectFrom('accounts')
        .select('balance_minor')
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).balance_minor,
  );
const topUpEntries = () =>
  server.ctx.db
    .selectFrom('ledger_entries')
    .select(['amount_minor', 'reference', 'currency'])
    .where('account_id', '=', accountId)
    .where('kind', '=', 'topup')
    .execute();

function event(type: string, object: Record<string, unknown>, id = `evt_test_${++eventSeq}`) {
  return { id, object: 'event', type, api_version: '2025-01-01', created: 1, data: { object } };
}
const session = (id: string, extra: Record<string, unknown> = {}) => ({
  object: 'checkout.session',
  id,
  payment_status: 'paid',
  status: 'complete',
  ...extra,
});

async function deliver(
  body: unknown,
  opts: { secret?: string; tamper?: (s: string) => string; header?: string | null } = {},
) {
  const payload = JSON.stringify(body);
  const header =
    opts.header === undefined
      ? Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? SECRET })
      : opts.header;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (header !== null) headers['stripe-signature'] = header;
  const res = await fetch(server.url + STRIPE_WEBHOOK_PATH, {
    method: 'POST',
    headers,
    body: opts.tamper ? opts.tamper(payload) : payload,
  });
  return { status: res.status, body: (await res.json()) as { outcome?: string } };
}

async function checkout(amountMinor: number) {
  const res = await owner.post('/api/billing/checkout', { amountMinor });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, sessionId: `cs_test_${sessions}`, url: res.body.url as string };
}

describe('Stripe Checkout top-ups', () => {
  it('creates a session server-side for an amount within the limits, and says the provider', async () => {
    const summary = await owner.get('/api/billing');
    expect(summary.body).toMatchObject({ provider: 'stripe', currency: 'USD', minTopUpMinor: 500 });
    for (const bad of [0, 499, 1_000_001, 12.5, 'ten']) {
      const res = await owner.post('/api/billing/checkout', { amountMinor: bad });
      expect(res.status, String(bad)).toBe(400);
    }
    const c = await checkout(2500);
    expect(c.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const list = await owner.get('/api/billing/top-ups');
    expect(list.body.items[0]).toMatchObject({
      id: c.id,
      provider: 'stripe',
      status: 'pending',
      amountMinor: 2500,
    });
    // The request to Stripe carried the stored amount and currency and the top-up's id.
    expect(createCheckout.mock.lastCall?.[0]).toMatchObject({
      topUpId: c.id,
      amountMinor: 2500,
      currency: 'USD',
      accountId,
    });
  });

  it('credits once from a verified completed event; a replay and a second event for the session credit nothing', async () => {
    const c = await checkout(1500);
    const before = await balance();
    const completed = event('checkout.session.completed', session(c.sessionId));
    const first = await deliver(completed);
    expect(first).toEqual({ status: 200, body: { received: true, outcome: 'credited' } });
    expect(await balance()).toBe(before + 1500);

    const replay = await deliver(completed);
    expect(replay.body.outcome).toBe('duplicate');
    const again = await deliver(event('checkout.session.completed', session(c.sessionId)));
    expect(again.body.outcome).toBe('already_credited');
    const late = await deliver(event('checkout.session.async_payment_succeeded', session(c.sessionId)));
    expect(late.body.outcome).toBe('already_credited');
    // An expiry heard after the payment does not undo it.
    const expired = await deliver(
      event('checkout.session.expired', session(c.sessionId, { payment_status: 'unpaid' })),
    );
    expect(expired.body.outcome).toBe('already_credited');
    expect(await balance()).toBe(before + 1500);
    const entries = (await topUpEntries()).filter((e) => e.reference === `topup:${c.id}`);
    expect(entries).toEqual([{ amount_minor: 1500, reference: `topup:${c.id}`, currency: 'USD' }]);
    const list = await owner.get('/api/billing/top-ups');
    expect(list.body.items.find((t: { id: string }) => t.id === c.id).status).toBe('paid');
  });

  it('credits the stored amount and currency, not the amount an event claims', async () => {
    const c = await checkout(700);
    const before = await balance();
    const res = await deliver(
      event('checkout.session.completed', session(c.sessionId, { amount_total: 999_999, currency: 'eur' })),
    );
    expect(res.body.outcome).toBe('credited');
    expect(await balance()).toBe(before + 700);
  });

  it('refuses a bad, missing or tampered signature with 400 and credits nothing', async () => {
    const c = await checkout(900);
    const before = await balance();
    const body = event('checkout.session.completed', session(c.sessionId));
    expect((await deliver(body, { secret: 'whsec_someone_else' })).status).toBe(400);
    expect((await deliver(body, { header: null })).status).toBe(400);
    expect((await deliver(body, { header: 't=1,v1=deadbeef' })).status).toBe(400);
    expect((await deliver(body, { tamper: (s) => s.replace(c.sessionId, 'cs_test_1') })).status).toBe(400);
    expect(await balance()).toBe(before);
    const seen = await server.ctx.db
      .selectFrom('payment_events')
      .select('event_id')
      .where('event_id', '=', body.id)
      .execute();
    expect(seen).toEqual([]);
    // The same event, properly signed, still credits: nothing was recorded for the refused ones.
    expect((await deliver(body)).body.outcome).toBe('credited');
    expect(await balance()).toBe(before + 900);
  });

  it('handles out-of-order and unrelated events', async () => {
    const before = await balance();
    // An unrelated event, and a completion for a session this server never created.
    expect(
      (await deliver(event('payment_intent.succeeded', { object: 'payment_intent', id: 'pi_1' }))).body
        .outcome,
    ).toBe('ignored');
    expect(
      (await deliver(event('checkout.session.completed', session('cs_test_unknown')))).body.outcome,
    ).toBe('unknown_session');
    // Completed but not paid yet (a bank debit): nothing until async_payment_succeeded.
    const slow = await checkout(1200);
    expect(
      (
        await deliver(
          event('checkout.session.completed', session(slow.sessionId, { payment_status: 'unpaid' })),
        )
      ).body.outcome,
    ).toBe('awaiting_payment');
    expect(await balance()).toBe(before);
    expect(
      (await deliver(event('checkout.session.async_payment_succeeded', session(slow.sessionId)))).body
        .outcome,
    ).toBe('credited');
    expect(await balance()).toBe(before + 1200);
    // Expired: the top-up is marked so and nothing is credited.
    const gone = await checkout(600);
    expect(
      (
        await deliver(
          event(
            'checkout.session.expired',
            session(gone.sessionId, { payment_status: 'unpaid', status: 'expired' }),
          ),
        )
      ).body.outcome,
    ).toBe('expired');
    const list = await owner.get('/api/billing/top-ups');
    expect(list.body.items.find((t: { id: string }) => t.id === gone.id).status).toBe('expired');
    expect(await balance()).toBe(before + 1200);
  });

  it('concurrent deliveries of one event, and of two events for one session, credit once', async () => {
    const c = await checkout(800);
    const before = await balance();
    const completed = event('checkout.session.completed', session(c.sessionId));
    const other = event('checkout.session.completed', session(c.sessionId));
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => deliver(completed)),
      ...Array.from({ length: 4 }, () => deliver(other)),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.outcome === 'credited')).toHaveLength(1);
    expect(await balance()).toBe(before + 800);
  });

  it('answers 503 when Stripe cannot create the session, and keeps no pending top-up', async () => {
    createCheckout.mockRejectedValueOnce(new Error('connect ETIMEDOUT api.stripe.com'));
    const res = await owner.post('/api/billing/checkout', { amountMinor: 1000 });
    expect(res.status).toBe(503);
    expect(JSON.stringify(res.body)).toMatch(/Nothing was charged/);
    const list = await owner.get('/api/billing/top-ups');
    expect(list.body.items[0]).toMatchObject({ amountMinor: 1000, status: 'expired' });
  });

  it('another account cannot see the top-ups; a role without the permission cannot read or start one', async () => {
    const other = server.client();
    await other.register();
    const theirs = await other.get('/api/billing/top-ups');
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
    const analyst = (await joinAs(server, owner, 'analyst')).client;
    expect((await analyst.get('/api/billing')).status).toBe(403);
    expect((await analyst.get('/api/billing/top-ups')).status).toBe(403);
    expect((await analyst.post('/api/billing/checkout', { amountMinor: 1000 })).status).toBe(403);
    const billing = (await joinAs(server, owner, 'billing')).client;
    expect((await billing.post('/api/billing/checkout', { amountMinor: 1000 })).status).toBe(201);
    // With Stripe configured, a request for an operator is refused (the card is the way).
    expect((await owner.post('/api/billing/top-ups', { amountMinor: 1000 })).status).toBe(409);
  });
});

describe('the Stripe provider', () => {
  it('creates a payment-mode session for the amount, with an idempotency key, through the stripe package', async () => {
    const calls: { url: string; body: string; headers: Record<string, string> }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({
        url: String(url),
        body: typeof init.body === 'string' ? init.body : '',
        headers: init.headers as Record<string, string>,
      });
      return new Response(
        JSON.stringify({
          id: 'cs_test_abc',
          object: 'checkout.session',
          url: 'https://checkout.stripe.com/c/pay/cs_test_abc',
        }),
        {
          status: 200,
          headers: { 'content-type': 'application/json', 'request-id': 'req_1' },
        },
      );
    }) as unknown as typeof fetch;
    const provider = createStripeProvider({
      secretKey: 'sk_test_x',
      webhookSecret: SECRET,
      httpClient: Stripe.createFetchHttpClient(fakeFetch),
    });
    const s = await provider.createCheckout({
      topUpId: '00000000-0000-4000-8000-000000000001',
      accountId: '00000000-0000-4000-8000-000000000002',
      amountMinor: 2500,
      currency: 'USD',
      successUrl: 'https://wren.test/billing/balance?result=success',
      cancelUrl: 'https://wren.test/billing/balance?result=canceled',
    });
    expect(s).toEqual({ sessionId: 'cs_test_abc', url: 'https://checkout.stripe.com/c/pay/cs_test_abc' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toContain('/v1/checkout/sessions');
    const form = new URLSearchParams(calls[0]!.body);
    expect(form.get('mode')).toBe('payment');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('2500');
    expect(form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(form.get('client_reference_id')).toBe('00000000-0000-4000-8000-000000000001');
    const headers = new Headers(calls[0]!.headers);
    expect(headers.get('idempotency-key')).toBe('topup-00000000-0000-4000-8000-000000000001');
  });
});
