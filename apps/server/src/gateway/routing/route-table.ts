import { microsToCost } from '@wren/contracts';
import { STATELESS_ROTATION, type RotationJudge } from './rotation';
/**
 * Routes (issue 38): which SMPP connections a message may go through, in which order, and why.
 *
 * A route matches a destination prefix (longest first) and may be limited to an account, a rate
 * plan, a lane or a sender. Among the routes of one prefix, the most specific that matches wins
 * (an account beats a rate plan, which beats a sender, which beats a lane). A route lists its
 * connections with a cost per segment, a priority and a weight; its strategy orders them:
 *
 * - `priority`: failover in priority order (lowest first);
 * - `weighted`: one connection drawn by weight, the others after it in priority order;
 * - `least_cost`: the cheapest first;
 * - `quality`: the best recent delivered ratio first, then the quickest receipts, among those under
 *   the route's cost ceiling (those over it come last).
 *
 * Whatever the strategy, connections that cannot take traffic now (no bind up, paused, out of
 * rotation) come after those that can, so the first candidate is the one to try and the next ones
 * are the failover. `decide` is pure and cheap (a few map lookups): it runs for every message.
 */

export const ROUTE_STRATEGIES = ['priority', 'weighted', 'least_cost', 'quality'] as const;
export type RouteStrategy = (typeof ROUTE_STRATEGIES)[number];

export const ROUTE_LANES = ['otp', 'single', 'bulk'] as const;
export type RouteLane = (typeof ROUTE_LANES)[number];

/** A carrier price per segment in millionths of the currency unit: 0.0042 → 4200 (exact integers). */
export type CostMicros = number;

export interface RouteEntry {
  connection: string;
  costMicros: CostMicros;
  /** Lower goes first under `priority`, and orders the rest under `weighted`. */
  priority: number;
  /** Share of traffic under `weighted` (0 takes none unless the others are down). */
  weight: number;
}

export interface RouteDef {
  id: string;
  name: string;
  /** E.164 prefix with its '+', e.g. '+4477'; '+' alone matches every destination. */
  prefix: string;
  accountId?: string | null;
  ratePlanId?: string | null;
  lane?: RouteLane | null;
  sender?: string | null;
  strategy: RouteStrategy;
  entries: RouteEntry[];
  /**
   * Any strategy: below this delivered ratio (0–1) a connection is out of the route's rotation
   * (rotation.ts: after the others, probed, back with hysteresis).
   */
  qualityFloor?: number | null;
  /** `quality`: connections costing more than this go last. */
  costCeilingMicros?: CostMicros | null;
}

/** What the message is: the route's filters are matched against it. */
export interface RouteContext {
  to: string;
  accountId?: string;
  ratePlanId?: string | null;
  lane?: RouteLane;
  sender?: string;
}

/** A connection's state now, as the gateway and its health monitor see it. */
export interface ConnectionHealth {
  /** Bound, not paused, and not taken out of rotation. */
  usable: boolean;
  /** Why not, when not usable ('no bind up', 'paused', 'out of rotation: …'). */
  why?: string;
  /** Delivered ÷ final receipts over the health window; undefined with too few receipts. */
  deliveredRatio?: number;
  /** Median receipt latency over the health window, ms. */
  receiptP50Ms?: number;
}

export type HealthOf = (connection: string) => ConnectionHealth;

export interface Candidate {
  connection: string;
  costMicros: CostMicros;
  usable: boolean;
  /**
   * Out of the route's rotation (below its floor) and not probed by this decision: tried only when
   * no connection in rotation can take the message, never as the overflow of a busy one.
   */
  outOfRotation?: boolean;
  /** Why it is where it is in the order. */
  reason: string;
}

export interface RouteDecision {
  /** The route that matched. */
  route: RouteDef;
  /** In the order to try: the first usable one, then the failover. */
  candidates: Candidate[];
  /** One line for the message's history and the console's route test. */
  reason: string;
}

export interface RouteTable {
  /**
   * The decision for one message, or null when no route matches (the connections' own prefixes
   * apply). `rotation` keeps which connections are out of a route's rotation (its floor), with
   * hysteresis and probes; without one, a connection below the floor is out, no more.
   */
  decide(
    ctx: RouteContext,
    health: HealthOf,
    random?: () => number,
    rotation?: RotationJudge,
  ): RouteDecision | null;
  readonly size: number;
}

/** A route's specificity: the more filters it has, and the stronger, the earlier it is tried. */
function specificity(r: RouteDef): number {
  return (r.accountId ? 8 : 0) + (r.ratePlanId ? 4 : 0) + (r.sender ? 2 : 0) + (r.lane ? 1 : 0);
}

function matches(r: RouteDef, ctx: RouteContext): boolean {
  return (
    (!r.accountId || r.accountId === ctx.accountId) &&
    (!r.ratePlanId || r.ratePlanId === ctx.ratePlanId) &&
    (!r.lane || r.lane === ctx.lane) &&
    (!r.sender || r.sender === ctx.sender)
  );
}

/** 4200 → "0.0042" (the price as an operator writes it). */
export const formatCost = microsToCost;

const pct = (ratio: number) => `${Math.round(ratio * 1000) / 10}%`;

/** What a candidate's reason is made of; the text is written only when read (history, console). */
interface RankContext {
  route: RouteDef;
  drawn: RouteEntry | undefined;
  totalWeight: number;
}

/**
 * One connection of a decision, in order. Its sort keys are numbers compared in order; its
 * reason is written the first time it is read: a decision is made for every message, and most
 * read only the first candidate's.
 */
class RankedCandidate implements Candidate {
  readonly connection: string;
  readonly costMicros: CostMicros;
  readonly usable: boolean;
  keys: number[] = [];
  /** Out of the route's rotation (its floor); `probing`: this decision tries it first to measure it. */
  out = false;
  probing = false;

  get outOfRotation(): boolean {
    return this.out && !this.probing;
  }
  private text: string | undefined;

  constructor(
    readonly entry: RouteEntry,
    readonly health: ConnectionHealth,
    private readonly ctx: RankContext,
  ) {
    this.connection = entry.connection;
    this.costMicros = entry.costMicros;
    this.usable = health.usable;
  }

  get reason(): string {
    this.text ??= this.write();
    return this.text;
  }

  /** Serialised with its reason (the console's route test answers decisions as JSON). */
  toJSON(): Candidate {
    return {
      connection: this.connection,
      costMicros: this.costMicros,
      usable: this.usable,
      reason: this.reason,
    };
  }

  private write(): string {
    const { entry, health: h, ctx } = this;
    const { route } = ctx;
    let why: string;
    switch (route.strategy) {
      case 'priority':
        why = `priority ${entry.priority}`;
        break;
      case 'weighted':
        why =
          entry === ctx.drawn
            ? `drawn by weight ${entry.weight} of ${ctx.totalWeight}`
            : `weight ${entry.weight}, priority ${entry.priority}`;
        break;
      case 'least_cost':
        why = `cost ${formatCost(entry.costMicros)}`;
        break;
      case 'quality': {
        const ceiling = route.costCeilingMicros ?? null;
        const ratio = h.deliveredRatio;
        why =
          (ratio === undefined ? 'no delivery figures yet' : `delivered ${pct(ratio)}`) +
          (h.receiptP50Ms !== undefined ? `, receipts p50 ${Math.round(h.receiptP50Ms)} ms` : '') +
          (ceiling !== null && entry.costMicros > ceiling
            ? `, over the cost ceiling ${formatCost(ceiling)}`
            : '');
        break;
      }
    }
    if (!h.usable) return `${h.why ?? 'not usable'} (was: ${why})`;
    if (this.out) {
      const ratio =
        h.deliveredRatio === undefined ? 'too few receipts' : `delivered ${pct(h.deliveredRatio)}`;
      const floor = pct(route.qualityFloor ?? 0);
      return this.probing
        ? `probing while out of rotation (${ratio}, the route's floor is ${floor}; was: ${why})`
        : `out of rotation: ${ratio}, below the route's floor ${floor} (was: ${why})`;
    }
    return why;
  }
}

function rank(
  route: RouteDef,
  health: HealthOf,
  random: () => number,
  rotation: RotationJudge,
): RankedCandidate[] {
  const ctx: RankContext = { route, drawn: undefined, totalWeight: 0 };
  const rows = route.entries.map((entry) => new RankedCandidate(entry, health(entry.connection), ctx));
  const ceiling = route.costCeilingMicros ?? null;
  const floor = route.qualityFloor ?? null;
  // Out of rotation (the route's floor): after the others; one decision in PROBE_EVERY tries one
  // of them first, so it is measured again.
  if (floor !== null) {
    let probe: boolean | undefined;
    for (const r of rows) {
      if (!r.usable) continue;
      r.out = rotation.isOut(route, r.connection, r.health.deliveredRatio, floor);
      if (!r.out) continue;
      probe ??= rotation.probe();
      r.probing = probe;
      probe = false;
    }
  }
  if (route.strategy === 'weighted') {
    // Drawn among the connections in rotation.
    let total = 0;
    for (const r of rows) if (r.usable && !r.out && r.entry.weight > 0) total += r.entry.weight;
    let x = random() * total;
    for (const r of rows) {
      if (!r.usable || r.out || r.entry.weight <= 0) continue;
      ctx.drawn = r.entry;
      x -= r.entry.weight;
      if (x < 0) break;
    }
    ctx.totalWeight = total;
  }
  for (const r of rows) {
    const entry = r.entry;
    const down = r.usable ? 0 : 1;
    const rot = r.probing ? -1 : r.out ? 1 : 0;
    switch (route.strategy) {
      case 'priority':
        r.keys = [down, rot, entry.priority, -entry.weight];
        break;
      case 'weighted':
        r.keys = [down, rot, entry === ctx.drawn ? 0 : 1, entry.priority];
        break;
      case 'least_cost':
        r.keys = [down, rot, entry.costMicros, entry.priority];
        break;
      case 'quality': {
        const h = r.health;
        const over = ceiling !== null && entry.costMicros > ceiling ? 1 : 0;
        // A connection without enough receipts yet ranks as if at the floor: it gets traffic
        // (and so a measure) before connections known to be below it.
        const score = h.deliveredRatio ?? floor ?? 0;
        r.keys = [down, rot, over, -score, h.receiptP50Ms ?? Number.MAX_SAFE_INTEGER, entry.costMicros];
        break;
      }
    }
  }
  return rows.sort((a, b) => {
    for (let i = 0; i < a.keys.length; i++) {
      const d = (a.keys[i] ?? 0) - (b.keys[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/** A decision whose one line is written when read (the history of a sent message, the console). */
class Decision implements RouteDecision {
  private text: string | undefined;

  constructor(
    readonly route: RouteDef,
    readonly candidates: RankedCandidate[],
  ) {}

  get reason(): string {
    if (this.text === undefined) {
      const first = this.candidates[0];
      const route = this.route;
      this.text = first
        ? `route ${route.name} (${route.prefix}, ${STRATEGY_NAMES[route.strategy]}): ${first.connection}, ${first.reason}` +
          // A least-cost candidate's reason is its cost already.
          (route.strategy === 'least_cost' && first.usable && !first.outOfRotation
            ? ''
            : `, cost ${formatCost(first.costMicros)}`)
        : `route ${route.name}: no connection`;
    }
    return this.text;
  }

  toJSON(): RouteDecision {
    return { route: this.route, candidates: this.candidates.map((c) => c.toJSON()), reason: this.reason };
  }
}

const STRATEGY_NAMES: Record<RouteStrategy, string> = {
  priority: 'priority',
  weighted: 'weighted',
  least_cost: 'least cost',
  quality: 'quality',
};

/**
 * Builds the table once per configuration change. Routes are kept per prefix, most specific
 * first; `decide` walks the destination's prefixes from the longest down and takes the first
 * route whose filters match and that lists at least one connection.
 */
export function compileRoutes(routes: readonly RouteDef[]): RouteTable {
  const byPrefix = new Map<string, RouteDef[]>();
  let longest = 0;
  for (const r of routes) {
    if (!/^\+\d*$/.test(r.prefix))
      throw new Error(`route ${r.name}: prefix ${r.prefix} is not '+' and digits`);
    const list = byPrefix.get(r.prefix) ?? [];
    list.push(r);
    byPrefix.set(r.prefix, list);
    longest = Math.max(longest, r.prefix.length);
  }
  for (const list of byPrefix.values()) list.sort((a, b) => specificity(b) - specificity(a));

  return {
    size: routes.length,
    decide(ctx, health, random = Math.random, rotation = STATELESS_ROTATION) {
      const to = ctx.to;
      for (let len = Math.min(longest, to.length); len >= 1; len--) {
        const list = byPrefix.get(len === to.length ? to : to.slice(0, len));
        if (!list) continue;
        for (const route of list) {
          if (route.entries.length === 0 || !matches(route, ctx)) continue;
          return new Decision(route, rank(route, health, random, rotation));
        }
      }
      return null;
    },
  };
}
