/**
 * A payment provider for top-ups (issue 47 item 1). The server creates a hosted checkout for an
 * amount it stored, and credits the account only when the provider's signed event says it was paid
 * (top-ups.service.ts). Stripe Checkout is the first implementation (stripe-provider.ts); with none
 * configured, top-ups are requests an operator approves in /admin.
 */
export interface CheckoutRequest {
  /** Our top-up's id: the session's client_reference_id and metadata, for reconciliation. */
  topUpId: string;
  accountId: string;
  amountMinor: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string;
}

export interface CheckoutSession {
  /** The provider's id of the session (Stripe: cs_…); the top-up row keeps it. */
  sessionId: string;
  /** Where the browser goes to pay. */
  url: string;
}

/** A verified provider event, reduced to what the top-up flow reads. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** The checkout session the event is about (checkout.session.* events). */
  sessionId: string | null;
  /** The session's payment status (Stripe: 'paid', 'unpaid', 'no_payment_required'). */
  paymentStatus: string | null;
}

/** The signature did not verify, or the body is not an event: a 400 to the provider. */
export class PaymentSignatureError extends Error {}

export interface PaymentProvider {
  readonly name: 'stripe';
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies the raw body against the signature header; throws PaymentSignatureError. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): PaymentEvent;
}
