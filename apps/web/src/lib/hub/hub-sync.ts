import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { HUB_METHOD_PERMISSIONS, type HubRequest } from '@wren/contracts';
import { canNow } from '../account-role';
import type { HubClient } from './hub-client';
import { hubKeys, liveQueryRoots, type BulkSmsChanged } from './hub-keys';

/** The requests without arguments: the data sets loaded on connect. */
type ListRequest = Exclude<HubRequest, 'GetCampaignDeliveryStatus' | 'GetCampaignDetail'>;

/** After UserAccountUpdated / UserSmsDeliveryUpdated, reload this long after the first push (SPEC.md §9). */
export const COALESCE_DELAY_MS = 3000;

/**
 * Runs `reload` once, COALESCE_DELAY_MS after the first call; calls within that window are
 * ignored. A call after the reload starts a new window.
 */
function coalesced(reload: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    trigger() {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        reload();
      }, COALESCE_DELAY_MS);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Feeds the hub's live data into TanStack Query (ARCHITECTURE.md §3: no second store): on every
 * connect it loads the six data sets into `hubKeys`, and each push reloads what it names and
 * invalidates the HTTP queries of other features that show the same data. Load failures are only
 * logged (SPEC.md §8). Returns a function that detaches it.
 */
export function attachHubSync(
  hub: HubClient,
  queryClient: QueryClient,
  log: (...args: unknown[]) => void = console.error,
  /** Whether the member's role may call `method` now (issue 39): what it may not is not asked for. */
  may: (method: HubRequest) => boolean = (method) => canNow(HUB_METHOD_PERMISSIONS[method]),
): () => void {
  // Hub data stays until the next load (it is set, never fetched by a query function).
  queryClient.setQueryDefaults(hubKeys.all, { gcTime: Infinity, staleTime: Infinity });

  const load = async (method: ListRequest, key: QueryKey): Promise<void> => {
    if (!may(method)) return;
    return hub.request(method).then(
      (data) => {
        queryClient.setQueryData(key, data);
      },
      (error: unknown) => log(`Hub ${method} failed:`, error),
    );
  };
  const invalidate = (queryKey: QueryKey) => void queryClient.invalidateQueries({ queryKey });

  const loadBalance = () => load('GetAccountBalance', hubKeys.balance);
  const loadDelivery = () =>
    Promise.all([
      load('GetDeliveryStatus', hubKeys.deliveryStatus),
      load('GetPerformanceData', hubKeys.performance),
    ]);
  const loadSenderIds = () => load('GetSenderIdList', hubKeys.senderIds);
  const loadTemplates = () => load('GetSmsTemplates', hubKeys.templates);
  const loadGroups = () => load('GetGroupList', hubKeys.groups);

  const balance = coalesced(() => {
    void loadBalance();
    invalidate(liveQueryRoots.balance);
  });
  const delivery = coalesced(() => {
    void loadDelivery();
  });

  const offConnected = hub.onConnected(() => {
    void loadBalance();
    void loadDelivery();
    void loadSenderIds();
    void loadTemplates();
    void loadGroups();
  });

  const offPush = hub.onPush((push, ...args) => {
    switch (push) {
      case 'GroupListUpdated':
        void loadGroups();
        invalidate(liveQueryRoots.groups);
        break;
      case 'SenderIdUpdated':
        void loadSenderIds();
        invalidate(liveQueryRoots.senderIds);
        break;
      case 'SmsTemplatesUpdated':
        void loadTemplates();
        invalidate(liveQueryRoots.templates);
        break;
      case 'UserAccountUpdated':
        balance.trigger();
        break;
      case 'UserSmsDeliveryUpdated':
        delivery.trigger();
        invalidate(liveQueryRoots.smsLog);
        invalidate(liveQueryRoots.smsMessage);
        invalidate(liveQueryRoots.dashboard);
        break;
      case 'InboundSmsReceived':
        invalidate(liveQueryRoots.inbound);
        invalidate(liveQueryRoots.suppressions);
        break;
      case 'BulkSmsUpdated': {
        const campaignId = String(args[0]);
        queryClient.setQueryData<BulkSmsChanged>(hubKeys.bulkSmsChanged, (last) => ({
          campaignId,
          seq: (last?.seq ?? 0) + 1,
        }));
        invalidate(liveQueryRoots.campaign(campaignId));
        break;
      }
    }
  });

  // A pending reload is dropped when the connection ends; the next connect loads everything.
  const offState = hub.subscribe(() => {
    if (hub.getSnapshot().connected) return;
    balance.cancel();
    delivery.cancel();
  });

  return () => {
    offConnected();
    offPush();
    offState();
    balance.cancel();
    delivery.cancel();
  };
}
