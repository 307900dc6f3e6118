import { skipToken, useQuery, type QueryKey } from '@tanstack/react-query';
import { HUB_METHOD_PERMISSIONS, type DashboardSummary } from '@wren/contracts';
import { useCan } from '@/lib/account-role';
import { hubKeys, useHubState } from '@/lib/hub';
import { useDashboardSummary } from './get-dashboard-summary';

export type LiveFigures = Partial<DashboardSummary>;

/**
 * Each figure from the hub's cache while the hub is connected, else from the HTTP summary; the
 * other source fills a gap (a hub load that failed, or the moments before the first reply).
 */
export function pickFigures(
  connected: boolean,
  hub: LiveFigures,
  http: LiveFigures | undefined,
): LiveFigures {
  const pick = <K extends keyof DashboardSummary>(key: K): DashboardSummary[K] | undefined =>
    connected ? (hub[key] ?? http?.[key]) : (http?.[key] ?? hub[key]);
  return {
    balance: pick('balance'),
    deliveryStatus: pick('deliveryStatus'),
    performance: pick('performance'),
  };
}

/** Reads a hub data set from the query cache; the hub sets it, nothing here fetches it. */
function useHubData<K extends keyof DashboardSummary>(queryKey: QueryKey) {
  return useQuery<DashboardSummary[K]>({ queryKey, queryFn: skipToken }).data;
}

/**
 * The dashboard's live figures: balance, delivery status and performance. The hub feeds them into
 * TanStack Query and they re-render on every push; without a hub connection they come from
 * GET /api/dashboard/summary (polled).
 */
export function useLiveFigures() {
  const { connected } = useHubState();
  // The figures the member's role may see (issue 39): the hub loads no others, the summary has none.
  const sees = {
    balance: useCan(HUB_METHOD_PERMISSIONS.GetAccountBalance),
    delivery: useCan(HUB_METHOD_PERMISSIONS.GetDeliveryStatus),
  };
  const hub: LiveFigures = {
    balance: useHubData<'balance'>(hubKeys.balance),
    deliveryStatus: useHubData<'deliveryStatus'>(hubKeys.deliveryStatus),
    performance: useHubData<'performance'>(hubKeys.performance),
  };
  const hubComplete =
    (!sees.balance || Boolean(hub.balance)) &&
    (!sees.delivery || Boolean(hub.deliveryStatus && hub.performance));
  const summary = useDashboardSummary(!connected || !hubComplete);
  return {
    connected,
    sees,
    figures: pickFigures(connected, hub, summary.data),
    error: summary.error,
  };
}
