import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  BILLING_API,
  BILLING_DATA_API,
  type BillingPriceList,
  type BillingSummaryDto,
  type CheckoutResult,
  type LedgerPage,
  type LowBalanceDto,
  type TopUpDto,
  type TopUpList,
} from '@wren/contracts';
import { downloadFile } from '@/lib/download';
import { http } from '@/lib/http/client';

/**
 * Billing of the signed-in account (issue 47): summary, top-ups, prices, ledger, low-balance alert.
 * Under the hub's `balance` root (lib/hub/hub-keys.ts): a UserAccountUpdated push (a top-up
 * credited, a send charged) reloads them.
 */
export const billingKeys = {
  all: ['balance', 'billing'] as const,
  summary: ['balance', 'billing', 'summary'] as const,
  topUps: ['balance', 'billing', 'top-ups'] as const,
  prices: (q: string) => ['balance', 'billing', 'prices', q] as const,
  ledger: (f: LedgerFilters) => ['balance', 'billing', 'ledger', f] as const,
  lowBalance: ['balance', 'billing', 'low-balance'] as const,
};

export interface LedgerFilters {
  kind: string;
  from: string;
  to: string;
}

export function useBillingSummary() {
  return useQuery({
    queryKey: billingKeys.summary,
    queryFn: async () => (await http.get<BillingSummaryDto>(BILLING_API.summary, { noOverlay: true })).data,
  });
}

export function useTopUps() {
  return useQuery({
    queryKey: billingKeys.topUps,
    queryFn: async () => (await http.get<TopUpList>(BILLING_API.topUps, { noOverlay: true })).data.items,
  });
}

export function useRequestTopUp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { amountMinor: number; note?: string }) =>
      (await http.post<TopUpDto>(BILLING_API.topUps, input, { noOverlay: true })).data,
    onSuccess: () => void qc.invalidateQueries({ queryKey: billingKeys.topUps }),
  });
}

export function useCheckout() {
  return useMutation({
    mutationFn: async (amountMinor: number) =>
      (await http.post<CheckoutResult>(BILLING_API.checkout, { amountMinor }, { noOverlay: true })).data,
  });
}

export function usePrices(q: string) {
  return useQuery({
    queryKey: billingKeys.prices(q),
    queryFn: async () =>
      (
        await http.get<BillingPriceList>(BILLING_DATA_API.prices, {
          params: { q: q || undefined },
          noOverlay: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

export const downloadPrices = () => downloadFile(BILLING_DATA_API.pricesCsv, 'wren-prices.csv');

const filterParams = (f: LedgerFilters) => ({
  kind: f.kind || undefined,
  from: f.from || undefined,
  to: f.to || undefined,
});

export function useLedger(f: LedgerFilters) {
  return useInfiniteQuery({
    queryKey: billingKeys.ledger(f),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await http.get<LedgerPage>(BILLING_DATA_API.ledger, {
          params: { ...filterParams(f), cursor: pageParam ?? undefined, limit: 50 },
          noOverlay: true,
        })
      ).data,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

export const downloadLedger = (f: LedgerFilters) =>
  downloadFile(BILLING_DATA_API.ledgerCsv, 'wren-ledger.csv', { params: filterParams(f) });

export function useLowBalance() {
  return useQuery({
    queryKey: billingKeys.lowBalance,
    queryFn: async () =>
      (await http.get<LowBalanceDto>(BILLING_DATA_API.lowBalance, { noOverlay: true })).data,
  });
}

export function useSetLowBalance() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (thresholdMinor: number | null) =>
      (await http.put<LowBalanceDto>(BILLING_DATA_API.lowBalance, { thresholdMinor }, { noOverlay: true }))
        .data,
    onSuccess: (data) => {
      qc.setQueryData(billingKeys.lowBalance, data);
      void qc.invalidateQueries({ queryKey: billingKeys.summary });
    },
  });
}

/** "12.34" → 1234 minor units, exactly; null when it is not an amount (at most 9 whole digits). */
export function toMinor(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0') || '0');
}
