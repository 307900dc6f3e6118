import type { CampaignDetail } from '@wren/contracts';
import {
  hasOpenMessages,
  OPEN_CAMPAIGN_REFRESH_MS,
  useCampaign,
  useCampaignLive,
  useCampaignTimeline,
} from '@/features/campaigns';
import { useHubState } from '@/lib/hub';
import { withCounts } from '../campaign-figures';

/**
 * One campaign as the detail page shows it: the HTTP figures, overridden by the hub's live counts
 * while it is connected, and its per-minute timeline (polled while messages are still open).
 */
export function useLiveCampaign(id: string) {
  const campaign = useCampaign(id);
  const live = useCampaignLive(id);
  const liveDetail = live.data?.detail;
  const openMessages = !!liveDetail && 'counts' in liveDetail && hasOpenMessages(liveDetail.counts);
  const timeline = useCampaignTimeline(id, openMessages ? OPEN_CAMPAIGN_REFRESH_MS : false);
  const hub = useHubState();

  // The hub's figures when it is connected ({} / [] when not: the HTTP figures stand in). The hub
  // counts the messages at the moment of the call, so they are current after every push.
  const hubDetail = live.data && 'id' in live.data.detail ? (live.data.detail as CampaignDetail) : null;
  const c = campaign.data && hubDetail ? withCounts(campaign.data, hubDetail.counts) : campaign.data;
  return { campaign, c, timeline, hubConnected: hub.connected };
}
