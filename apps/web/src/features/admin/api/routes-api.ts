import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ROUTES_API,
  type MarginDto,
  type RouteDto,
  type RouteInput,
  type RouteListDto,
  type RouteTestDto,
  type RouteTestInput,
} from '@wren/contracts';
import { downloadFile } from '@/lib/download';
import { http } from '@/lib/http/client';

/** Operators' routes and margin report (issue 38): admin only, every change audited. */
export const routeKeys = {
  all: ['admin', 'routes'] as const,
  margin: (from: string, to: string) => ['admin', 'margin', from, to] as const,
};

const onePath = (id: string) => ROUTES_API.one.replace(':id', encodeURIComponent(id));

export const useRoutes = () =>
  useQuery({
    queryKey: routeKeys.all,
    queryFn: async () => (await http.get<RouteListDto>(ROUTES_API.list, { noOverlay: true })).data,
  });

export function useSaveRoute() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: string | null; input: RouteInput }) =>
      id
        ? (await http.put<RouteDto>(onePath(id), input, { noOverlay: true })).data
        : (await http.post<RouteDto>(ROUTES_API.list, input, { noOverlay: true })).data,
    onSuccess: () => void qc.invalidateQueries({ queryKey: routeKeys.all }),
  });
}

export function useDeleteRoute() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, reason }: { id: string; reason: string }) => {
      await http.request({ method: 'delete', url: onePath(id), data: { reason }, noOverlay: true });
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: routeKeys.all }),
  });
}

export const useTestRoute = () =>
  useMutation({
    mutationFn: async (input: RouteTestInput) =>
      (await http.post<RouteTestDto>(ROUTES_API.test, input, { noOverlay: true })).data,
  });

export const useMargin = (from: string, to: string) =>
  useQuery({
    queryKey: routeKeys.margin(from, to),
    queryFn: async () =>
      (await http.get<MarginDto>(ROUTES_API.margin, { params: { from, to }, noOverlay: true })).data,
    enabled: !!from && !!to,
    placeholderData: keepPreviousData,
  });

export const downloadMargin = (from: string, to: string) =>
  downloadFile(ROUTES_API.marginCsv, `margin-${from}-${to}.csv`, { params: { from, to } });
