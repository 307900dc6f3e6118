import type { CampaignDeliveryStatus, CampaignDetailReply } from '@wren/contracts';
import type { HubClient } from './hub-client';

/**
 * The campaign calls (SPEC.md §7). When the hub is not connected they answer at once with an empty
 * list / an empty object, as the server does for an unknown campaign.
 */
export function campaignCalls(hub: HubClient) {
  return {
    getCampaignDeliveryStatus: (campaignId: string): Promise<CampaignDeliveryStatus> => {
      if (!hub.getSnapshot().connected) return Promise.resolve([]);
      return hub.request('GetCampaignDeliveryStatus', campaignId);
    },
    getCampaignDetail: (campaignId: string): Promise<CampaignDetailReply> => {
      if (!hub.getSnapshot().connected) return Promise.resolve({});
      return hub.request('GetCampaignDetail', campaignId);
    },
  };
}
