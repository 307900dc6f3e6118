/**
 * The routing decision's cost (issue 38's goal: ≤ 2 µs a message with 10,000 prefixes and 20
 * connections), in this process.
 *
 *   npm run bench:routing -- [N]        (default 1,000,000 decisions per strategy)
 *
 * Builds 10,000 routes over 20 connections (prefixes of 3 to 7 digits after the country code,
 * a tenth of them limited to an account or a lane, three to five connections each), then times
 * `decide` for N destinations drawn from those prefixes and from numbers no route matches, once
 * per strategy. Prints µs per decision, and as a floor in the same run the connections' own
 * prefix lookup that routing replaces (gateway/smpp-gateway.ts createRouter: one map per length).
 */
import { createRouter } from '@wren/server/src/gateway/smpp-gateway';
import {
  compileRoutes,
  ROUTE_STRATEGIES,
  type ConnectionHealth,
  type RouteDef,
  type RouteStrategy,
} from '@wren/server/src/gateway/routing/route-table';

const N = Number(process.argv[2] ?? 1_000_000);
const PREFIXES = 10_000;
const CONNECTIONS = 20;
const COUNTRIES = ['+1', '+44', '+33', '+49', '+91', '+55', '+234', '+27', '+61', '+81'];

let seed = 42;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
const connections = Array.from({ length: CONNECTIONS }, (_, i) => `carrier-${i}`);

function routes(strategy: RouteStrategy): RouteDef[] {
  seed = 42;
  const seen = new Set<string>();
  const out: RouteDef[] = [];
  while (out.length < PREFIXES) {
    const prefix = `${pick(COUNTRIES)}${digits(3 + Math.floor(random() * 5))}`;
    const limited = random() < 0.1;
    const key = `${prefix}|${limited}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const n = 3 + Math.floor(random() * 3);
    const start = Math.floor(random() * CONNECTIONS);
    out.push({
      id: String(out.length),
      name: `r${out.length}`,
      prefix,
      accountId: limited && random() < 0.5 ? 'account-7' : null,
      lane: limited ? 'otp' : null,
      strategy,
      qualityFloor: 0.8,
      costCeilingMicros: 6000,
      entries: Array.from({ length: n }, (_, j) => ({
        connection: connections[(start + j) % CONNECTIONS]!,
        costMicros: 3000 + Math.floor(random() * 4000),
        priority: j,
        weight: 1 + Math.floor(random() * 5),
      })),
    });
  }
  // A default for each country, so most destinations match something.
  for (const c of COUNTRIES)
    out.push({
      id: c,
      name: `default ${c}`,
      prefix: c,
      strategy,
      entries: connections
        .slice(0, 3)
        .map((connection, j) => ({ connection, costMicros: 5000, priority: j, weight: 1 })),
    });
  return out;
}

// Health as the gateway answers it: one connection in five down, measured ratios on the rest.
const health = new Map<string, ConnectionHealth>(
  connections.map((c, i) => [
    c,
    i % 5 === 0
      ? { usable: false, why: 'no bind up' }
      : { usable: true, deliveredRatio: 0.7 + (i % 7) * 0.04, receiptP50Ms: 800 + i * 50 },
  ]),
);
const healthOf = (c: string) => health.get(c)!;

const defs = routes('priority');
const destinations = Array.from({ length: 50_000 }, (_, i) => {
  if (i % 10 === 9) return `+999${digits(9)}`; // no route
  const r = pick(defs);
  return `${r.prefix}${digits(Math.max(0, 12 - r.prefix.length))}`;
});
const lanes = ['otp', 'single', 'bulk'] as const;

function time(label: string, decide: (to: string, i: number) => unknown) {
  for (let i = 0; i < 200_000; i++) decide(destinations[i % destinations.length]!, i);
  const runs: number[] = [];
  let sink = 0;
  for (let run = 0; run < 3; run++) {
    const t = performance.now();
    for (let i = 0; i < N; i++) if (decide(destinations[i % destinations.length]!, i)) sink++;
    runs.push(((performance.now() - t) * 1000) / N);
  }
  const best = Math.min(...runs);
  return { label, best, sink };
}

console.log(
  `bench:routing — ${defs.length.toLocaleString()} routes, ${CONNECTIONS} connections, ${N.toLocaleString()} decisions per run, best of 3 (Node ${process.version})\n`,
);
const unique = [...new Set(defs.map((r) => r.prefix))];
const floorRouter = createRouter(
  connections.map((name, i) => ({
    cfg: { name, prefixes: i === 0 ? [] : unique.filter((_, j) => j % (CONNECTIONS - 1) === i - 1) },
  })),
);
const floor = time('floor: the connections’ own prefixes (createRouter)', (to) => floorRouter(to));
console.log(`${floor.label.padEnd(56)} ${floor.best.toFixed(3).padStart(7)} µs`);
let worst = 0;
for (const strategy of ROUTE_STRATEGIES) {
  const table = compileRoutes(routes(strategy));
  const r = time(`decide, ${strategy}`, (to, i) =>
    table.decide(
      { to, accountId: i % 3 === 0 ? 'account-7' : 'account-1', lane: lanes[i % 3], sender: 'ACME' },
      healthOf,
      random,
    ),
  );
  worst = Math.max(worst, r.best);
  console.log(
    `${r.label.padEnd(56)} ${r.best.toFixed(3).padStart(7)} µs   ${(r.best / floor.best).toFixed(1)}× the floor`,
  );
}
console.log(
  `\nworst strategy: ${worst.toFixed(3)} µs a decision (goal ≤ 2 µs): ${worst <= 2 ? 'met' : 'NOT met'}`,
);
