import pg from 'pg';
import type { LoadRecord } from './load';
import type { FaultKind } from './schedule';

export const FINAL = ['delivered', 'undelivered', 'expired', 'rejected', 'unknown', 'failed', 'canceled'];
/** Faults that may leave a submit unanswered or a lease unreleased: a message may be sent again. */
const RESENDING: readonly FaultKind[] = [
  'kill-worker',
  'smsc-disconnect',
  'smsc-slow',
  'pg-restart',
  'pg-cut',
  'pg-stall',
  'wal-disk-full',
];

export interface Verdict {
  acknowledged: number;
  campaign: number;
  lost: string[];
  notFinal: string[];
  duplicated: number;
  duplicateBound: number;
  maxSubmits: number;
  maxSubmitsBound: number;
  phantom: string[];
  idempotencyBroken: string[];
  ledgerDrift: number;
  belowZero: number;
  violations: string[];
  unrecovered: string[];
  ok: boolean;
}

const norm = (key: string) => key.replace(/^\+/, '');

/**
 * Reads the database and the simulators' counts against what the clients were told. `submits`:
 * the simulators' submit_sm per "destination|text" (destinations without `+`). `inFlight`: the most
 * submits one fault can leave unanswered (binds × window × connections).
 */
export async function check(opts: {
  databaseUrl: string;
  record: LoadRecord;
  submits: Map<string, number>;
  faults: { kind: FaultKind }[];
  inFlight: number;
  unrecovered: string[];
}): Promise<Verdict> {
  const { record } = opts;
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  try {
    const ids = [...record.acks.keys()];
    const rows = (
      await client.query<{ id: string; status: string; recipient: string; body: string }>(
        'SELECT id, status, recipient, body FROM messages WHERE id = ANY($1::uuid[])',
        [ids],
      )
    ).rows;
    const found = new Map(rows.map((r) => [r.id, r]));
    const lost = ids.filter((id) => !found.has(id));
    const notFinal = rows.filter((r) => !FINAL.includes(r.status)).map((r) => `${r.id} ${r.status}`);

    // The campaign's messages: one per recipient, each final.
    let campaign = 0;
    const campaignRows: { status: string; recipient: string; body: string }[] = [];
    if (record.campaignId) {
      const c = await client.query<{ status: string; recipient: string; body: string }>(
        'SELECT status, recipient, body FROM messages WHERE campaign_id = $1',
        [record.campaignId],
      );
      campaignRows.push(...c.rows);
      campaign = c.rows.length;
      if (campaign !== record.campaignRecipients)
        lost.push(`campaign has ${campaign} of ${record.campaignRecipients} messages`);
      notFinal.push(
        ...c.rows.filter((r) => !FINAL.includes(r.status)).map((r) => `campaign ${r.recipient} ${r.status}`),
      );
    }

    // Sends per message, from the simulators' records, against the at-least-once bound.
    const resending = opts.faults.filter((f) => RESENDING.includes(f.kind)).length;
    let duplicated = 0;
    let maxSubmits = 0;
    const phantom: string[] = [];
    for (const r of [...rows, ...campaignRows]) {
      const n = opts.submits.get(`${norm(r.recipient)}|${r.body}`) ?? 0;
      if (n > 1) duplicated += n - 1;
      maxSubmits = Math.max(maxSubmits, n);
      // Delivered (a receipt said so) but never submitted: a receipt applied to the wrong message.
      if (r.status === 'delivered' && n === 0) phantom.push(`${r.recipient} ${r.status}`);
    }

    const idempotencyBroken = [...record.idempotency]
      .filter(([, s]) => s.size !== 1)
      .map(([k, s]) => `${k}: ${s.size} messages`);

    const drift = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM accounts a
        WHERE a.balance_minor <> (SELECT coalesce(sum(amount_minor), 0) FROM ledger_entries l WHERE l.account_id = a.id)`,
    );
    const below = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT sum(amount_minor) OVER (PARTITION BY account_id ORDER BY id) AS running FROM ledger_entries
       ) x WHERE running < 0`,
    );
    const verdict: Verdict = {
      acknowledged: ids.length,
      campaign,
      lost,
      notFinal,
      duplicated,
      duplicateBound: resending * opts.inFlight,
      maxSubmits,
      maxSubmitsBound: 1 + resending,
      phantom,
      idempotencyBroken,
      ledgerDrift: drift.rows[0]!.n,
      belowZero: below.rows[0]!.n,
      violations: record.violations,
      unrecovered: opts.unrecovered,
      ok: false,
    };
    verdict.ok =
      lost.length === 0 &&
      notFinal.length === 0 &&
      duplicated <= verdict.duplicateBound &&
      maxSubmits <= verdict.maxSubmitsBound &&
      phantom.length === 0 &&
      idempotencyBroken.length === 0 &&
      verdict.ledgerDrift === 0 &&
      verdict.belowZero === 0 &&
      record.violations.length === 0 &&
      opts.unrecovered.length === 0;
    return verdict;
  } finally {
    await client.end();
  }
}
