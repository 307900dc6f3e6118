import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_API, type DashboardSummaryOfRole } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { dashboardKeys, FALLBACK_POLL_MS } from './query-keys';

/**
 * GET /api/dashboard/summary: balance, delivery status and performance in one call (those the
 * member's role may see, issue 39). Off the busy
 * overlay: it polls in the background while the hub is down; the cards show skeletons.
 */
export async function getDashboardSummary(): Promise<DashboardSummaryOfRole> {
  const { data } = await http.get<DashboardSummaryOfRole>(DASHBOARD_API.summary, { noOverlay: true });
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
