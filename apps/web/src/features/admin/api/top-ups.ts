import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ADMIN_TOP_UPS_API,
  adminTopUpPath,
  type AdminTopUpList,
  type TopUpDto,
  type TopUpStatus,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Operators' queue of top-up requests (issue 47: the embedded default, no payment provider). */
export const topUpKeys = {
  all: ['admin', 'top-ups'] as const,
  list: (status: TopUpStatus) => ['admin', 'top-ups', status] as const,
};

export function useAdminTopUps(status: TopUpStatus) {
  return useQuery({
    queryKey: topUpKeys.list(status),
    queryFn: async () =>
      (await http.get<AdminTopUpList>(ADMIN_TOP_UPS_API.list, { params: { status }, noOverlay: true })).data
        .items,
  });
}

export function useDecideTopUp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; decision: 'approve' | 'reject'; note?: string }) =>
      (
        await http.post<TopUpDto>(
          adminTopUpPath(input.id, input.decision),
          { note: input.note },
          { noOverlay: true },
        )
      ).data,
    onSettled: () => void qc.invalidateQueries({ queryKey: topUpKeys.all }),
  });
}
