import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  FINAL_STATUSES,
  type CampaignDeliveryStatus,
  type CampaignDetailReply,
  type MessageStatus,
} from '@wren/contracts';
import {
  getCampaignDeliveryStatus,
  getCampaignDetail,
  hubKeys,
  useHubState,
  type BulkSmsChanged,
} from '@/lib/hub';
import { campaignKeys } from './campaigns';

/** Calls `onPush(campaignId)` on every BulkSmsUpdated the hub receives (no polling). */
export function useBulkSmsPushes(onPush: (campaignId: string) => void) {
  const queryClient = useQueryClient();
  const ref = useRef(onPush);
  useEffect(() => {
    ref.current = onPush;
  }, [onPush]);
  useEffect(() => {
    const key = JSON.stringify(hubKeys.bulkSmsChanged);
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || JSON.stringify(event.query.queryKey) !== key) return;
      const data = event.query.state.data as BulkSmsChanged | undefined;
      if (data) ref.current(data.campaignId);
    });
  }, [queryClient]);
}

/**
 * How often a campaign with open messages is asked again between pushes. The server reuses a large
 * campaign's counts for a while (a second per 100,000 messages), so the push that ends a burst can
 * be answered with counts a few seconds old; this catches up with it.
 */
export const OPEN_CAMPAIGN_REFRESH_MS = 10_000;

/** Whether counts by status still hold a message that can change. */
export const hasOpenMessages = (counts: Partial<Record<string, number>> | undefined) =>
  !!counts &&
  Object.entries(counts).some(([s, n]) => (n ?? 0) > 0 && !FINAL_STATUSES.includes(s as MessageStatus));

/**
 * The campaign's live figures over the hub (SPEC.md §7): GetCampaignDetail and
 * GetCampaignDeliveryStatus, refetched when BulkSmsUpdated(id) invalidates ['campaign', id]. Both
 * answer {} / [] while the hub is not connected.
 */
export function useCampaignLive(id: string) {
  const { connected } = useHubState();
  return useQuery({
    // Asked again when the hub (re)connects: while it is down the calls answer {} and [].
    queryKey: [...campaignKeys.hub(id), connected],
    queryFn: async (): Promise<{ detail: CampaignDetailReply; status: CampaignDeliveryStatus }> => {
      const [detail, status] = await Promise.all([getCampaignDetail(id), getCampaignDeliveryStatus(id)]);
      return { detail, status };
    },
    refetchInterval: (query) => {
      const detail = query.state.data?.detail;
      return detail && 'counts' in detail && hasOpenMessages(detail.counts)
        ? OPEN_CAMPAIGN_REFRESH_MS
        : false;
    },
  });
}
