import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_API, type DashboardSummary } from '@wren/contracts';
import { dashboardHttp } from './dashboard-http';
import { dashboardKeys, FALLBACK_POLL_MS } from './query-keys';

/** GET /api/dashboard/summary: balance, delivery status and performance in one call. */
export async function getDashboardSummary(): Promise<DashboardSummary> {
  const { data } = await dashboardHttp.get<DashboardSummary>(DASHBOARD_API.summary);
  return data;
}

/** The HTTP fallback for the live figures; only runs while `enabled` (the hub cannot serve them). */
export const useDashboardSummary = (enabled: boolean) =>
  useQuery({
    queryKey: dashboardKeys.summary,
    queryFn: getDashboardSummary,
    enabled,
    staleTime: 0,
    refetchInterval: enabled ? FALLBACK_POLL_MS : false,
  });
