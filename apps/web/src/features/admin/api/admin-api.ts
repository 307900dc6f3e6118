import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  ADMIN_API,
  SENDER_ID_API,
  type AccountLimits,
  type AdminAccountDetail,
  type AdminAccountPage,
  type AdminSenderIdPage,
  type AuditPage,
  type ImportResult,
  type LedgerPage,
  type PricePreview,
  type RatePlanDetail,
  type RatePlanSummary,
  type SystemStatus,
  type UserRole,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

const at = (pattern: string, id: string) => pattern.replace(/:(id|name)/, encodeURIComponent(id));

export const adminKeys = {
  all: ['admin'] as const,
  accounts: (q: string, status: string) => ['admin', 'accounts', q, status] as const,
  account: (id: string) => ['admin', 'account', id] as const,
  ledger: (id: string) => ['admin', 'ledger', id] as const,
  ratePlans: ['admin', 'rate-plans'] as const,
  ratePlan: (id: string) => ['admin', 'rate-plan', id] as const,
  senderIds: (status: string) => ['admin', 'sender-ids', status] as const,
  audit: (f: AuditFilters) => ['admin', 'audit', f] as const,
  system: ['admin', 'system'] as const,
};

// ---------- accounts ----------

export function useAccounts(q: string, status: '' | 'active' | 'locked') {
  return useInfiniteQuery({
    queryKey: adminKeys.accounts(q, status),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await http.get<AdminAccountPage>(ADMIN_API.accounts, {
          params: {
            q: q || undefined,
            status: status || undefined,
            cursor: pageParam ?? undefined,
            limit: 25,
          },
        })
      ).data,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

export const useAccount = (id: string) =>
  useQuery({
    queryKey: adminKeys.account(id),
    queryFn: async () => (await http.get<AdminAccountDetail>(at(ADMIN_API.account, id))).data,
  });

export function useLedger(id: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.ledger(id),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await http.get<LedgerPage>(at(ADMIN_API.ledger, id), {
          params: { cursor: pageParam ?? undefined, limit: 25 },
        })
      ).data,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** After a change to an account: its detail, its ledger and the lists. */
function useAccountChange<I>(id: string, fn: (input: I) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (data) => {
      if (data && typeof data === 'object' && 'users' in data) qc.setQueryData(adminKeys.account(id), data);
      // An adjustment answers with the new balance: shown at once, not after the ledger's refetch.
      else if (data && typeof data === 'object' && 'balanceMinor' in data)
        qc.setQueryData<AdminAccountDetail>(adminKeys.account(id), (old) =>
          old ? { ...old, balanceMinor: (data as { balanceMinor: number }).balanceMinor } : old,
        );
      await Promise.all([
        qc.invalidateQueries({ queryKey: adminKeys.account(id) }),
        qc.invalidateQueries({ queryKey: adminKeys.ledger(id) }),
        qc.invalidateQueries({ queryKey: ['admin', 'accounts'] }),
      ]);
    },
  });
}

export const useAdjust = (id: string) =>
  useAccountChange(
    id,
    async (input: { amountMinor: number; reason: string; requestId: string }) =>
      (await http.post(at(ADMIN_API.adjustments, id), input)).data,
  );
export const useLock = (id: string) =>
  useAccountChange(
    id,
    async (input: { reason: string }) =>
      (await http.post<AdminAccountDetail>(at(ADMIN_API.lock, id), input)).data,
  );
export const useUnlock = (id: string) =>
  useAccountChange(
    id,
    async (input: { reason?: string }) =>
      (await http.post<AdminAccountDetail>(at(ADMIN_API.unlock, id), input)).data,
  );
export const useAssignPlan = (id: string) =>
  useAccountChange(
    id,
    async (ratePlanId: string | null) =>
      (await http.put<AdminAccountDetail>(at(ADMIN_API.accountRatePlan, id), { ratePlanId })).data,
  );
export const useSetLimits = (id: string) =>
  useAccountChange(
    id,
    async (limits: AccountLimits) =>
      (await http.put<AdminAccountDetail>(at(ADMIN_API.limits, id), limits)).data,
  );
export const useSetRole = (accountId: string) =>
  useAccountChange(
    accountId,
    async (input: { userId: string; role: UserRole }) =>
      (await http.put<AdminAccountDetail>(at(ADMIN_API.userRole, input.userId), { role: input.role })).data,
  );

// ---------- rate plans ----------

export const useRatePlans = () =>
  useQuery({
    queryKey: adminKeys.ratePlans,
    queryFn: async () => (await http.get<{ items: RatePlanSummary[] }>(ADMIN_API.ratePlans)).data.items,
  });

export const useRatePlan = (id: string | null) =>
  useQuery({
    queryKey: adminKeys.ratePlan(id ?? ''),
    queryFn: async () => (await http.get<RatePlanDetail>(at(ADMIN_API.ratePlan, id!))).data,
    enabled: !!id,
  });

function usePlanChange<I, O>(fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: adminKeys.ratePlans });
      await qc.invalidateQueries({ queryKey: ['admin', 'rate-plan'] });
    },
  });
}

export const useCreatePlan = () =>
  usePlanChange(
    async (input: { name: string; currency: string }) =>
      (await http.post<RatePlanDetail>(ADMIN_API.ratePlans, input)).data,
  );
export const useCopyPlan = () =>
  usePlanChange(
    async (input: { id: string; name: string }) =>
      (await http.post<RatePlanDetail>(at(ADMIN_API.ratePlanCopy, input.id), { name: input.name })).data,
  );
export const useRenamePlan = () =>
  usePlanChange(
    async (input: { id: string; name: string }) =>
      (await http.patch<RatePlanDetail>(at(ADMIN_API.ratePlan, input.id), { name: input.name })).data,
  );
export const useMakeDefaultPlan = () =>
  usePlanChange(
    async (id: string) => (await http.post<RatePlanDetail>(at(ADMIN_API.ratePlanDefault, id))).data,
  );
export const useDeletePlan = () =>
  usePlanChange(async (id: string) => {
    await http.delete(at(ADMIN_API.ratePlan, id));
  });
export const useSavePrices = () =>
  usePlanChange(
    async (input: { id: string; prices: { prefix: string; priceMinor: number }[] }) =>
      (await http.put<RatePlanDetail>(at(ADMIN_API.ratePlanPrices, input.id), { prices: input.prices })).data,
  );
export const useImportPrices = () =>
  usePlanChange(
    async (input: {
      id: string;
      csv: string;
      mode: 'merge' | 'replace';
      onProgress?: (fraction: number) => void;
    }) =>
      (
        await http.post<ImportResult>(
          at(ADMIN_API.ratePlanImport, input.id),
          { csv: input.csv, mode: input.mode },
          { onUploadProgress: (e) => input.onProgress?.(e.total ? e.loaded / e.total : 0) },
        )
      ).data,
  );

export const previewPrice = async (id: string, to: string) =>
  (await http.get<PricePreview>(at(ADMIN_API.ratePlanPreview, id), { params: { to } })).data;

// ---------- sender IDs ----------

export function useSenderIdQueue(status: 'requested' | 'approved' | 'rejected') {
  return useInfiniteQuery({
    queryKey: adminKeys.senderIds(status),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await http.get<AdminSenderIdPage>(SENDER_ID_API.adminList, {
          params: { status, cursor: pageParam ?? undefined, limit: 50 },
        })
      ).data,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: 15_000,
  });
}

export function useDecideSenderIds() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { ids: string[]; action: 'approve' | 'reject'; reason?: string }) =>
      (
        await http.post<{ results: { id: string; ok: boolean; message: string | null }[] }>(
          ADMIN_API.senderIdsBulk,
          input,
        )
      ).data.results,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'sender-ids'] }),
  });
}

// ---------- audit ----------

export interface AuditFilters {
  kind: string;
  actor: string;
  accountId: string;
  from: string;
  to: string;
}

export function useAudit(f: AuditFilters) {
  return useInfiniteQuery({
    queryKey: adminKeys.audit(f),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await http.get<AuditPage>(ADMIN_API.audit, {
          params: {
            kind: f.kind || undefined,
            actor: f.actor || undefined,
            accountId: f.accountId || undefined,
            from: f.from || undefined,
            to: f.to || undefined,
            cursor: pageParam ?? undefined,
            limit: 50,
          },
        })
      ).data,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

// ---------- system ----------

export const useSystemStatus = () =>
  useQuery({
    queryKey: adminKeys.system,
    // A live read (pushes every second or two): never behind the full-screen busy overlay.
    queryFn: async () => (await http.get<SystemStatus>(ADMIN_API.system, { noOverlay: true })).data,
    // The hub's SystemStatusUpdated refreshes it every 2 s; this is the fallback without the hub.
    refetchInterval: 10_000,
  });

export function useConnectionControl() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { name: string; pause: boolean }) =>
      (
        await http.post(
          at(input.pause ? ADMIN_API.connectionPause : ADMIN_API.connectionResume, input.name),
          {},
        )
      ).data,
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.system }),
  });
}

export const adminPath = at;
