import { sql, type Selectable } from 'kysely';
import type { CampaignTables } from '../../db/schema-campaigns';
import { copyLines, copyText } from '../../platform/copy';
import type { Db } from '../../platform/db';

export type UploadRow = Selectable<CampaignTables['campaign_uploads']>;
export type CampaignRow = Selectable<CampaignTables['bulk_campaigns']> & {
  kind: 'bulk' | 'personalised';
  name: string;
};

export async function insertUpload(db: Db, u: Omit<UploadRow, 'id' | 'created_at'>): Promise<{ id: string }> {
  // Abandoned uploads (a day old) go when the account uploads again.
  await db
    .deleteFrom('campaign_uploads')
    .where('account_id', '=', u.account_id)
    .where('created_at', '<', new Date(Date.now() - 86_400_000))
    .execute();
  return db.insertInto('campaign_uploads').values(u).returning('id').executeTakeFirstOrThrow();
}

export type UploadInfo = Omit<UploadRow, 'file'>;

/** An upload without its file (read it with uploadFile / uploadText). */
export async function findUploadInfo(db: Db, accountId: string, id: string): Promise<UploadInfo | undefined> {
  return db
    .selectFrom('campaign_uploads')
    .select([
      'id',
      'account_id',
      'file_name',
      'file_type',
      'delimiter',
      'encoding',
      'has_header',
      'columns',
      'row_count_guess',
      'created_at',
    ])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function uploadFile(db: Db, id: string): Promise<Uint8Array> {
  const row = await db
    .selectFrom('campaign_uploads')
    .select('file')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.file;
}

/** Bytes of a stored file read at a time (PostgreSQL sends bytea as hex text: twice as many characters). */
const FILE_SLICE = 4 * 1024 * 1024;

/**
 * A stored file decoded as text, read in slices: memory holds the text and one slice, not the
 * whole file's hex text and its bytes as well (about 3× the file at once).
 */
export async function uploadText(db: Db, id: string, encoding: string, slice = FILE_SLICE): Promise<string> {
  const decoder = new TextDecoder(encoding);
  const parts: string[] = [];
  for (let from = 1; ; from += slice) {
    const res = await sql<{ part: Uint8Array | null; size: number }>`
      SELECT substring(file FROM ${from}::int FOR ${slice}::int) AS part, octet_length(file) AS size
        FROM campaign_uploads WHERE id = ${id}::uuid`.execute(db);
    const row = res.rows[0];
    if (!row || !row.part) throw new Error('the uploaded file is gone');
    const last = from - 1 + slice >= row.size;
    parts.push(decoder.decode(row.part, { stream: !last }));
    if (last) break;
  }
  return parts.join('');
}

const campaignColumns = (db: Db) =>
  db
    .selectFrom('bulk_campaigns as b')
    .innerJoin('campaigns as c', 'c.id', 'b.campaign_id')
    .selectAll('b')
    .select([sql<'bulk' | 'personalised'>`c.kind`.as('kind'), 'c.name']);

export async function findCampaign(db: Db, accountId: string, id: string): Promise<CampaignRow | undefined> {
  return campaignColumns(db)
    .where('b.account_id', '=', accountId)
    .where('b.campaign_id', '=', id)
    .executeTakeFirst();
}

/** Locks the campaign row (lifecycle changes and the materialiser serialise on it). */
export async function lockCampaign(trx: Db, id: string, accountId?: string) {
  let q = trx.selectFrom('bulk_campaigns').selectAll().where('campaign_id', '=', id);
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.forUpdate().executeTakeFirst();
}

export interface CampaignFilter {
  accountId: string;
  status?: string;
  from?: Date;
  to?: Date;
  q?: string;
  after?: { createdAt: string; id: string };
  limit: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The report: newest first by keyset on (created_at, id), never OFFSET. */
export async function listCampaigns(db: Db, f: CampaignFilter): Promise<CampaignRow[]> {
  let q = campaignColumns(db).where('b.account_id', '=', f.accountId);
  if (f.status) q = q.where('b.status', '=', f.status as CampaignRow['status']);
  if (f.from) q = q.where('b.created_at', '>=', f.from);
  if (f.to) q = q.where('b.created_at', '<', f.to);
  if (f.q) {
    const like = `%${escapeLike(f.q)}%`;
    q = q.where((eb) => eb.or([eb('c.name', 'ilike', like), eb('b.body', 'ilike', like)]));
  }
  if (f.after) {
    q = q.where(
      sql<boolean>`(b.created_at, b.campaign_id) < (${f.after.createdAt}::timestamptz, ${f.after.id}::uuid)`,
    );
  }
  return q.orderBy('b.created_at', 'desc').orderBy('b.campaign_id', 'desc').limit(f.limit).execute();
}

const RECIPIENT_COLUMNS = ['campaign_id', 'seq', 'phone', 'price_minor', 'segments', 'vals'];

/** Stores a batch of recipients, numbered from `firstSeq` (one COPY). */
export async function insertRecipients(
  trx: Db,
  campaignId: string,
  firstSeq: number,
  rows: readonly { phone: number; priceMinor: number; segments: number; vals: string | null }[],
) {
  if (rows.length === 0) return;
  const prefix = `${campaignId}\t`;
  let lines = '';
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    lines += `${prefix}${firstSeq + i}\t${r.phone}\t${r.priceMinor}\t${r.segments}\t${copyText(r.vals)}\n`;
  }
  await copyLines(trx, 'campaign_recipients', RECIPIENT_COLUMNS, lines);
}

/** The campaign's messages still in the work queue (not leased unless `leased`). */
export async function queuedMessageIds(trx: Db, campaignId: string, opts: { unleasedOnly: boolean }) {
  const res = await sql<{ id: string }>`
    SELECT q.message_id AS id FROM send_queue q
     WHERE q.campaign_id = ${campaignId}::uuid ${opts.unleasedOnly ? sql`AND q.leased_by IS NULL` : sql``}`.execute(
    trx,
  );
  return res.rows.map((r) => r.id);
}

export async function backlog(trx: Db, campaignId: string) {
  const res = await sql<{ n: string; due: string }>`
    SELECT count(*) AS n, count(*) FILTER (WHERE due_at <= now()) AS due
      FROM send_queue WHERE campaign_id = ${campaignId}::uuid`.execute(trx);
  // `due`: what waits to be sent now; the rest waits for its recipients' send window to open.
  return { total: Number(res.rows[0]?.n ?? 0), due: Number(res.rows[0]?.due ?? 0) };
}

/** The key of a campaign's stats holding what its messages were refunded (minor units). */
export const REFUNDED_STAT = 'refundedMinor';

/**
 * Counts by message status (messages_campaign_keyset_idx), and under REFUNDED_STAT the sum refunded
 * for its messages one by one (canceled while queued, rejected, undelivered…), in the same pass.
 */
export async function statusCounts(db: Db, campaignId: string) {
  const res = await sql<{ status: string; n: string; refunded: string | null }>`
    SELECT status, count(*) AS n, sum(price_minor) FILTER (WHERE refunded) AS refunded
      FROM messages WHERE campaign_id = ${campaignId}::uuid GROUP BY status`.execute(db);
  const stats: Record<string, number> = Object.fromEntries(res.rows.map((r) => [r.status, Number(r.n)]));
  stats[REFUNDED_STAT] = res.rows.reduce((a, r) => a + Number(r.refunded ?? 0), 0);
  return stats;
}

export async function saveStats(db: Db, campaignId: string, stats: Record<string, number>) {
  await sql`UPDATE bulk_campaigns SET stats = ${JSON.stringify(stats)}::jsonb, stats_at = now()
             WHERE campaign_id = ${campaignId}::uuid`.execute(db);
}

/** Sent (submitted) and delivered per minute. */
export async function timeline(db: Db, campaignId: string) {
  const res = await sql<{ minute: Date; sent: string; delivered: string }>`
    WITH s AS (
      SELECT date_trunc('minute', submitted_at) AS minute, count(*) AS n FROM messages
       WHERE campaign_id = ${campaignId}::uuid AND submitted_at IS NOT NULL GROUP BY 1),
    d AS (
      SELECT date_trunc('minute', done_at) AS minute, count(*) AS n FROM messages
       WHERE campaign_id = ${campaignId}::uuid AND status = 'delivered' GROUP BY 1)
    SELECT coalesce(s.minute, d.minute) AS minute, coalesce(s.n, 0) AS sent, coalesce(d.n, 0) AS delivered
      FROM s FULL JOIN d ON d.minute = s.minute
     ORDER BY 1 LIMIT 1440`.execute(db);
  return res.rows.map((r) => ({
    minute: new Date(r.minute).toISOString(),
    sent: Number(r.sent),
    delivered: Number(r.delivered),
  }));
}
