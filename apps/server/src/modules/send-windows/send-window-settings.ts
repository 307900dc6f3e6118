import type { SendWindow, SendWindowSettings, SendWindowSettingsDto } from '@wren/contracts';
import type { Db } from '../../platform/db';

/** The account's send-window settings (migration 0044); none stored: no window, single sends exempt. */
export async function loadSendWindowSettings(db: Db, accountId: string): Promise<SendWindowSettingsDto> {
  const row = await db
    .selectFrom('account_send_windows')
    .select(['send_window', 'apply_to_single', 'updated_at'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return {
    window: row?.send_window ?? null,
    applyToSingle: row?.apply_to_single ?? false,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

export async function saveSendWindowSettings(
  db: Db,
  accountId: string,
  s: SendWindowSettings,
): Promise<SendWindowSettingsDto> {
  const send_window = s.window ? JSON.stringify(s.window) : null;
  await db
    .insertInto('account_send_windows')
    .values({ account_id: accountId, send_window, apply_to_single: s.applyToSingle })
    .onConflict((oc) =>
      oc
        .column('account_id')
        .doUpdateSet({ send_window, apply_to_single: s.applyToSingle, updated_at: new Date() }),
    )
    .execute();
  return loadSendWindowSettings(db, accountId);
}

/** The account's default window, or null. */
export async function accountWindow(db: Db, accountId: string): Promise<SendWindow | null> {
  return (await loadSendWindowSettings(db, accountId)).window;
}

/** The window single sends of the account wait for: its default, when it opted them in; else null. */
export async function singleSendWindow(db: Db, accountId: string): Promise<SendWindow | null> {
  const s = await loadSendWindowSettings(db, accountId);
  return s.applyToSingle ? s.window : null;
}
