import type { EventBus } from '../../platform/events';

/** One `messages.changed` event per account per batch, with the campaigns touched. */
export function notifyChanged(events: EventBus, rows: { account_id: string; campaign_id: string | null }[]) {
  const byAccount = new Map<string, Set<string>>();
  for (const r of rows) {
    const set = byAccount.get(r.account_id) ?? new Set<string>();
    if (r.campaign_id) set.add(r.campaign_id);
    byAccount.set(r.account_id, set);
  }
  for (const [accountId, campaigns] of byAccount) {
    events.publish('messages.changed', { accountId, campaignIds: [...campaigns] });
  }
}
