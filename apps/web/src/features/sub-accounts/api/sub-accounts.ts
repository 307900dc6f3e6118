import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SUB_ACCOUNTS_API,
  type CreateSubAccountInput,
  type CreateTransferInput,
  type SetSubAccountPricingInput,
  type SubAccountDetail,
  type SubAccountList,
  type SubAccountPricingDetail,
  type SubAccountSummary,
  type SubAccountUsageSummary,
  type TransferResult,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Sub-accounts for resellers (issue 39 item 4): the parent's children, money, prices, usage, lock. */

const root = ['sub-accounts'] as const;
const one = (id: string) => [...root, id] as const;
const at = (pattern: string, id: string) => pattern.replace(':id', encodeURIComponent(id));

export { useAccountStatus } from './account-status';

export function useSubAccounts(cursor: string | null) {
  return useQuery({
    queryKey: [...root, 'list', cursor],
    queryFn: async () =>
      (await http.get<SubAccountList>(SUB_ACCOUNTS_API.list, cursor ? { params: { cursor } } : undefined))
        .data,
    placeholderData: keepPreviousData,
  });
}

export function useSubAccount(id: string) {
  return useQuery({
    queryKey: one(id),
    queryFn: async () => (await http.get<SubAccountDetail>(at(SUB_ACCOUNTS_API.one, id))).data,
  });
}

export function useSubAccountPricing(id: string) {
  return useQuery({
    queryKey: [...one(id), 'pricing'],
    queryFn: async () => (await http.get<SubAccountPricingDetail>(at(SUB_ACCOUNTS_API.pricing, id))).data,
  });
}

export function useSubAccountUsage(id: string, period: { from: string; to: string } | null) {
  return useQuery({
    queryKey: [...one(id), 'usage', period?.from, period?.to],
    enabled: period !== null,
    queryFn: async () =>
      (await http.get<SubAccountUsageSummary>(at(SUB_ACCOUNTS_API.usage, id), { params: period ?? {} })).data,
  });
}

function useInvalidating<I, O>(fn: (input: I) => Promise<O>, id?: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: id ? one(id) : root }),
        qc.invalidateQueries({ queryKey: [...root, 'list'] }),
        qc.invalidateQueries({ queryKey: ['balance'] }),
      ]),
  });
}

export const useCreateSubAccount = () =>
  useInvalidating(
    async (input: CreateSubAccountInput) =>
      (await http.post<SubAccountSummary>(SUB_ACCOUNTS_API.list, input)).data,
  );

export const useTransfer = (id: string) =>
  useInvalidating(
    async (input: CreateTransferInput) =>
      (await http.post<TransferResult>(at(SUB_ACCOUNTS_API.transfers, id), input)).data,
    id,
  );

export const useSetPricing = (id: string) =>
  useInvalidating(
    async (input: SetSubAccountPricingInput) =>
      (await http.put<SubAccountPricingDetail>(at(SUB_ACCOUNTS_API.pricing, id), input)).data,
    id,
  );

export const useSetLock = (id: string) =>
  useInvalidating(
    async (reason: string | null) =>
      (reason === null
        ? await http.delete<SubAccountSummary>(at(SUB_ACCOUNTS_API.lock, id))
        : await http.put<SubAccountSummary>(at(SUB_ACCOUNTS_API.lock, id), { reason })
      ).data,
    id,
  );
