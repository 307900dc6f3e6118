import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  NUMBERS_API,
  type NumberCreate,
  type NumberDto,
  type NumberList,
  type NumberUpdate,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Operators' inventory of numbers (issue 40 item 0): admin only, every change audited. */
export const numberKeys = {
  all: ['admin', 'numbers'] as const,
  list: (q: string, status: string) => ['admin', 'numbers', q, status] as const,
};

const withId = (pattern: string, id: string) => pattern.replace(':id', encodeURIComponent(id));

export function useNumbers(q: string, status: 'all' | 'free' | 'assigned') {
  return useInfiniteQuery({
    queryKey: numberKeys.list(q, status),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await http.get<NumberList>(NUMBERS_API.adminList, {
          params: { q: q || undefined, status, cursor: pageParam ?? undefined },
          noOverlay: true,
        })
      ).data,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

function useRefresh() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: numberKeys.all });
}

export function useSaveNumber() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (input: { id: null; body: NumberCreate } | { id: string; body: NumberUpdate }) =>
      input.id === null
        ? (await http.post<NumberDto>(NUMBERS_API.adminList, input.body, { noOverlay: true })).data
        : (await http.put<NumberDto>(withId(NUMBERS_API.adminOne, input.id), input.body, { noOverlay: true }))
            .data,
    onSuccess: refresh,
  });
}

export function useRemoveNumber() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (id: string) => {
      await http.delete(withId(NUMBERS_API.adminOne, id), { noOverlay: true });
    },
    onSuccess: refresh,
  });
}

/** Assign to an account (its first month is charged at once) or release (`accountId` null). */
export function useAssignNumber() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, accountId }: { id: string; accountId: string | null }) =>
      accountId === null
        ? (await http.delete<NumberDto>(withId(NUMBERS_API.adminAssignment, id), { noOverlay: true })).data
        : (
            await http.post<NumberDto>(
              withId(NUMBERS_API.adminAssignment, id),
              { accountId },
              { noOverlay: true },
            )
          ).data,
    onSuccess: refresh,
  });
}
