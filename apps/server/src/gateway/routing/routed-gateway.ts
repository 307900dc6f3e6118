import type { DeliveryReceipt, OutboundSms, RoutedOutcome, SmsGateway } from '../sms-gateway';
import { ConnectionHealthWindow } from './health-window';
import { RotationTracker, type RotationChange } from './rotation';
import type { ConnectionHealth, RouteLane, RouteTable } from './route-table';

/** The lane of a message's priority (OutboundSms.priority: 0 OTP, 1 single, 2 bulk). */
export function laneOf(priority: number | undefined): RouteLane {
  if (priority === 0) return 'otp';
  if (priority !== undefined && priority >= 2) return 'bulk';
  return 'single';
}

/** What is known of a connection now: on this node, or as a worker last reported it. */
export interface ConnectionState {
  paused: boolean;
  /** An operator drains it: no new messages, its binds stay up for receipts and MO. */
  draining?: boolean;
  bound: number;
  throttled: boolean;
  deliveredRatio?: number | undefined;
  receiptP50Ms?: number | undefined;
}

/**
 * The one rule of a connection's usability, for routing on the workers and for the console's
 * route test from their reports: paused, draining, no bind up, or every bind throttled takes it out.
 */
export function healthOf(c: ConnectionState): ConnectionHealth {
  const figures = { deliveredRatio: c.deliveredRatio, receiptP50Ms: c.receiptP50Ms };
  if (c.paused) return { usable: false, why: 'paused by an operator', ...figures };
  if (c.draining) return { usable: false, why: 'draining: no new messages', ...figures };
  if (c.bound === 0) return { usable: false, why: 'no bind up', ...figures };
  if (c.throttled) return { usable: false, why: 'throttling: every bind is paused', ...figures };
  return { usable: true, ...figures };
}

export interface RoutingState {
  /** The compiled routes now (replaced when an operator changes them); null: no routes. */
  table: RouteTable | null;
  /** An account's rate plan, for routes limited to one (undefined: not known, such routes do not match). */
  ratePlanOf(accountId: string): string | null | undefined;
}

export interface RoutedGateway {
  gateway: SmsGateway;
  /** Each connection's health as routing sees it now (the console's route test shows the same). */
  health(connection: string): ConnectionHealth;
  readonly window: ConnectionHealthWindow;
}

/**
 * Puts the routes in front of a gateway: each message's route decides the connections to try, in
 * order (`via`), from each connection's health now: a bind up, not paused, and its recent
 * delivered ratio (for quality routes, from the final receipts this node has seen). A message no
 * route matches goes as before, by the connections' own prefixes. The decision's one line and the
 * chosen connection's cost come back with the outcome (`route`), for the message's history.
 */
export function routedGateway(
  inner: SmsGateway,
  state: RoutingState,
  opts: {
    isPaused: (connection: string) => boolean;
    isDraining?: (connection: string) => boolean;
    window?: ConnectionHealthWindow;
    /** Told each time a connection goes out of a route's rotation or comes back (rotation.ts). */
    onRotation?: (change: RotationChange) => void;
  },
): RoutedGateway {
  const window = opts.window ?? new ConnectionHealthWindow();
  const rotation = new RotationTracker(opts.onRotation);
  const health = (connection: string): ConnectionHealth =>
    healthOf({
      paused: opts.isPaused(connection),
      draining: opts.isDraining?.(connection) ?? false,
      bound: inner.boundOf?.(connection) ?? 0,
      throttled: inner.throttledOf?.(connection) ?? false,
      ...window.figures(connection),
    });

  /** An accepted submit starts its receipts' latency clock. */
  const noted = (outcome: RoutedOutcome): RoutedOutcome => {
    if (outcome.kind === 'accepted') window.submitted(outcome.connection, outcome.smscIds);
    return outcome;
  };

  async function submit(sms: OutboundSms): Promise<RoutedOutcome> {
    const table = state.table;
    if (!table || sms.via) return noted(await inner.submit(sms));
    const accountId = sms.accountId;
    const decision = table.decide(
      {
        to: sms.to.trim(),
        accountId,
        ratePlanId: accountId ? state.ratePlanOf(accountId) : undefined,
        lane: laneOf(sms.priority),
        sender: sms.from,
      },
      health,
      Math.random,
      rotation,
    );
    if (!decision) return noted(await inner.submit(sms));
    const usable = decision.candidates.filter((c) => c.usable);
    if (usable.length === 0) {
      return {
        kind: 'retry',
        reason: `${decision.reason}: no connection of the route can take it now (${decision.candidates
          .map((c) => `${c.connection}: ${c.reason}`)
          .join('; ')})`,
        retryAfterMs: 1000,
        waiting: true,
      };
    }
    // Connections out of rotation are the last resort: used only when none in rotation is usable
    // (a busy or refusing one in rotation does not send its overflow to them).
    const inRotation = usable.filter((c) => !c.outOfRotation);
    const via = (inRotation.length > 0 ? inRotation : usable).map((c) => c.connection);
    const outcome = noted(await inner.submit({ ...sms, via }));
    if (outcome.kind === 'accepted' || outcome.kind === 'unknown') {
      const chosen = decision.candidates.find((c) => c.connection === outcome.connection);
      const failedOver = chosen && chosen !== usable[0];
      outcome.route = {
        reason: failedOver
          ? `${decision.reason}; failed over to ${chosen.connection} (${chosen.reason})`
          : decision.reason,
        costMicros: chosen?.costMicros ?? 0,
        routeName: decision.route.name,
        strategy: decision.route.strategy,
      };
    }
    return outcome;
  }

  const gateway: SmsGateway = {
    start: (o) => inner.start(o),
    stop: () => inner.stop(),
    submit,
    onReceipt: (h) =>
      inner.onReceipt(async (r: DeliveryReceipt) => {
        await h(r);
        window.record(r.connection, r.stat, r.smscId);
      }),
    onMo: (h) => inner.onMo(h),
    status: () => inner.status(),
    boundOf: (name) => inner.boundOf?.(name) ?? 0,
    throttledOf: (name) => inner.throttledOf?.(name) ?? false,
    pauseConnection: inner.pauseConnection?.bind(inner),
    resumeConnection: inner.resumeConnection?.bind(inner),
  };
  return { gateway, health, window };
}
