import type { MessageStatus } from '@wren/contracts';
import type { Db } from '../../platform/db';

/** Test fixture: a campaign row of the account. */
export async function insertCampaign(db: Db, accountId: string, name = 'Spring sale') {
  const row = await db
    .insertInto('campaigns')
    .values({ account_id: accountId, kind: 'bulk', name })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  return row;
}

/** Test fixture: message rows written directly (status and creation time as given). */
export async function insertMessages(
  db: Db,
  accountId: string,
  rows: { status: MessageStatus; createdAt?: Date; campaignId?: string | null; priceMinor?: number }[],
) {
  if (rows.length === 0) return;
  await db
    .insertInto('messages')
    .values(
      rows.map((r, i) => ({
        account_id: accountId,
        campaign_id: r.campaignId ?? null,
        recipient: `+1415555${String(1000 + i).slice(-4)}`,
        sender: 'Wren',
        body: 'Hello',
        encoding: 'GSM-7' as const,
        segments: 1,
        price_minor: r.priceMinor ?? 1,
        currency: 'USD',
        status: r.status,
        validity_until: new Date(Date.now() + 86_400_000),
        created_at: r.createdAt ?? new Date(),
      })),
    )
    .execute();
}
