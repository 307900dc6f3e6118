import Stripe from 'stripe';
import { z } from 'zod';
import {
  PaymentSignatureError,
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentEvent,
  type PaymentProvider,
} from './payment-provider';

/** What the flow reads of a checkout.session.* event's object; anything else is ignored. */
const sessionObject = z.object({
  object: z.literal('checkout.session'),
  id: z.string(),
  payment_status: z.string().nullish(),
});

/**
 * Stripe Checkout (the `stripe` package): a session in payment mode for one line of the stored
 * amount, and webhook events verified with stripe.webhooks.constructEvent over the raw body.
 * `httpClient` lets tests answer Stripe's API without the network.
 */
export function createStripeProvider(opts: {
  secretKey: string;
  webhookSecret: string;
  httpClient?: ReturnType<typeof Stripe.createFetchHttpClient>;
}): PaymentProvider {
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(opts.httpClient ? { httpClient: opts.httpClient } : {}),
  });
  return {
    name: 'stripe',
    async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: req.topUpId,
          metadata: { top_up_id: req.topUpId, account_id: req.accountId },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: req.currency.toLowerCase(),
                unit_amount: req.amountMinor,
                product_data: { name: 'Wren balance top-up' },
              },
            },
          ],
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
          ...(req.customerEmail ? { customer_email: req.customerEmail } : {}),
        },
        // A retry of this request (maxNetworkRetries) creates one session, not two.
        { idempotencyKey: `topup-${req.topUpId}` },
      );
      if (!session.url) throw new Error('Stripe created a checkout session without a URL');
      return { sessionId: session.id, url: session.url };
    },
    verifyEvent(rawBody: Buffer, signature: string | undefined): PaymentEvent {
      if (!signature) throw new PaymentSignatureError('No Stripe-Signature header');
      let event: { id: string; type: string; data: { object: unknown } };
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, opts.webhookSecret);
      } catch (err) {
        throw new PaymentSignatureError(err instanceof Error ? err.message : 'Invalid signature');
      }
      const obj = sessionObject.safeParse(event.data?.object);
      return {
        id: event.id,
        type: event.type,
        sessionId: obj.success ? obj.data.id : null,
        paymentStatus: obj.success ? (obj.data.payment_status ?? null) : null,
      };
    },
  };
}
