/**
 * Peer benchmark: Kannel (bearerbox + smsbox) and Wren, one after the other, against the same SMPP
 * simulator process (sequential decimal message ids), with the same load generator (one message per
 * HTTP request), the same window and one bind. Prints submitted/s, the time until every message is
 * final, CPU per message of each product's processes, and the ratios Wren/Kannel.
 *
 *   npm run bench:peer -- [N] [concurrency]          (defaults 20,000 and 50)
 *   BENCH_DATABASE_URL=postgres://…/postgres          Wren's PostgreSQL (default: local wren_ci)
 *   BENCH_PEER_ONLY=kannel|wren|floor                 run one part only (floor: the Node.js floor below)
 *   BENCH_FINAL_TIMEOUT_S=120                         wait for final states this long after the last submit
 *   BENCH_WARMUP=10000                                messages sent first and left out of every figure, by
 *                                                     each product and the floor alike (0: none). A server
 *                                                     runs for days: its steady state is what a message costs,
 *                                                     not the JIT compiling Node.js does in its first seconds
 *   BENCH_KANNEL_STORE=file                           Kannel keeps its message store on disk
 *   BENCH_DB=embedded                                 Wren on its embedded PostgreSQL (default: fresh database on the above)
 *   BENCH_PG_STATEMENTS=1                             (with BENCH_DB=embedded) Wren's top statements per message
 *   BENCH_WREN_ID_NOTATION=dec                        SMSC_ID_NOTATION for Wren (default: Wren's default)
 *
 * Then the Node.js floor, in the same harness: the CPU per message of the least a Node.js gateway
 * does with Wren's libraries (lib/node-floor-child.ts): a Fastify route that answers the same
 * requests, and the `smpp` library submitting as many messages to the same simulator and answering
 * their receipts. With bench:pg-floor (PostgreSQL's least work for Wren's log at the same batch
 * size) it bounds what any design on this stack can reach against Kannel.
 */
import { spawnSync } from 'node:child_process';
import { runFloor } from './lib/peer-floor';
import { runKannel } from './lib/peer-kannel';
import { printFloorRatio, printRatios, printRun } from './lib/peer-report';
import type { RunResult } from './lib/peer-run';
import { CONCURRENCY, N, ONLY, WINDOW } from './lib/peer-settings';
import { runWren } from './lib/peer-wren';
import { repoRoot } from './lib/wren-process';

/** Sequential decimal ids from 1: the simulator's `seq-dec` preset if it has one, else plain decimal. */
function idFormatArgs(): { args: string[]; note: string } {
  const help = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'packages/smsc-simulator/src/cli.ts', '--help'],
    { cwd: repoRoot, encoding: 'utf8', timeout: 30_000 },
  ).stdout;
  if (help?.includes('seq-dec'))
    return { args: ['--id-format', 'seq-dec'], note: 'seq-dec (1, 2, 3, … decimal)' };
  return {
    args: ['--id-format', 'decimal'],
    note: 'decimal (this simulator CLI has no seq-dec preset: ids count up from Date.now()*1000, not from 1)',
  };
}

async function main() {
  const id = idFormatArgs();
  console.log(
    `peer benchmark: ${N} messages, one per HTTP request, concurrency ${CONCURRENCY}, window ${WINDOW}, one bind; ` +
      `SMSC simulator process, receipts at once, all DELIVRD, ids ${id.note}`,
  );
  const results: RunResult[] = [];
  for (const [name, run] of [
    ['kannel', runKannel],
    ['wren', runWren],
  ] as const) {
    if (ONLY && ONLY !== name) continue;
    try {
      const r = await run(id.args);
      printRun(r);
      results.push(r);
    } catch (err) {
      console.error(`\n== ${name} failed:`, err);
    }
  }
  const [k, w] = [
    results.find((r) => r.name.startsWith('Kannel')),
    results.find((r) => r.name.startsWith('Wren')),
  ];
  let floorUs: number | undefined;
  if (!ONLY || ONLY === 'floor') {
    try {
      floorUs = await runFloor(id.args);
    } catch (err) {
      console.error('\n== the Node.js floor failed:', err);
      process.exitCode = 1;
    }
  }
  if (k && floorUs !== undefined) printFloorRatio(k, floorUs);
  if (k && w) printRatios(w, k);
  if (results.some((r) => r.timedOut) || results.length < (ONLY === 'floor' ? 0 : ONLY ? 1 : 2))
    process.exitCode = 1;
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
