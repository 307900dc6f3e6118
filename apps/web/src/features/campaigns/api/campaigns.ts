import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  useInfiniteQuery,
} from '@tanstack/react-query';
import {
  CAMPAIGNS_API,
  campaignPath,
  type CampaignAccepted,
  type CampaignDto,
  type CampaignEstimate,
  type CampaignPage,
  type CampaignSourceInput,
  type CampaignClicks,
  type CampaignTimeline,
  type CampaignUploadDto,
  CONTACTS_API,
  type GroupDto,
  type GroupList,
  type CreateCampaignInput,
  type MessageStatus,
  type SmsLogPage,
} from '@wren/contracts';
import { downloadFile, saveBlob } from '@/lib/download';
import { useCan } from '@/lib/account-role';
import { http } from '@/lib/http/client';
import { liveQueryRoots } from '@/lib/hub';

/** Every campaign query starts with this key; BulkSmsUpdated(id) invalidates ['campaign', id]. */
export const campaignKeys = {
  all: ['campaign'] as const,
  list: (filters: object) => ['campaign', 'list', filters] as const,
  item: (id: string) => ['campaign', id] as const,
  messages: (id: string, filters: object) => ['campaign', id, 'messages', filters] as const,
  timeline: (id: string) => ['campaign', id, 'timeline'] as const,
  clicks: (id: string) => ['campaign', id, 'clicks'] as const,
  hub: (id: string) => ['campaign', id, 'hub'] as const,
};

/** The balance query's key (the messaging feature's and the hub's). */
const balanceQueryKey = liveQueryRoots.balance;
interface Balance {
  balanceMinor: number;
  currency: string;
}

/** The contact groups with their counts (the contacts feature's key: GroupListUpdated refreshes it). */
/** The account's groups, for a role that reads contacts (a developer sends to numbers only). */
export function useCampaignGroups() {
  const allowed = useCan('contacts:read');
  const query = useQuery({
    queryKey: ['groups', 'list'],
    queryFn: async (): Promise<GroupDto[]> => (await http.get<GroupList>(CONTACTS_API.groups)).data.items,
    enabled: allowed,
  });
  return Object.assign(query, { allowed });
}

/** Uploads a recipients file with progress from 0 to 100 (no busy overlay: the page shows the bar). */
export async function uploadRecipients(file: File, onProgress: (percent: number) => void) {
  const body = new FormData();
  body.append('file', file);
  const { data } = await http.post<CampaignUploadDto>(CAMPAIGNS_API.upload, body, {
    noOverlay: true,
    onUploadProgress: (event) => onProgress(event.total ? Math.round((event.loaded / event.total) * 100) : 0),
  });
  return data;
}

export async function estimateCampaign(input: CampaignSourceInput, signal?: AbortSignal) {
  const { data } = await http.post<CampaignEstimate>(CAMPAIGNS_API.estimate, input, {
    noOverlay: true,
    signal,
  });
  return data;
}

/** The recipients that will not be sent to (invalid, opted out, duplicates) as a CSV download. */
export async function downloadIssues(input: CampaignSourceInput) {
  const { data } = await http.post<Blob>(CAMPAIGNS_API.issues, input, { responseType: 'blob' });
  saveBlob(data, 'recipients-not-sent.csv');
}

export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateCampaignInput) =>
      (await http.post<CampaignAccepted>(CAMPAIGNS_API.list, input)).data,
    onSuccess: async (result) => {
      queryClient.setQueryData<Balance>(balanceQueryKey, {
        balanceMinor: result.balanceMinor,
        currency: result.campaign.currency,
      });
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all });
    },
  });
}

export interface CampaignFilters {
  status?: string;
  from?: string;
  to?: string;
  q?: string;
}

export function useCampaigns(filters: CampaignFilters) {
  return useInfiniteQuery({
    queryKey: campaignKeys.list(filters),
    queryFn: async ({ pageParam }) =>
      (
        await http.get<CampaignPage>(CAMPAIGNS_API.list, {
          params: { ...filters, cursor: pageParam || undefined, limit: 20 },
          noOverlay: true,
        })
      ).data,
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

export const useCampaign = (id: string) =>
  useQuery({
    queryKey: campaignKeys.item(id),
    queryFn: async () =>
      (await http.get<CampaignDto>(campaignPath(CAMPAIGNS_API.item, id), { noOverlay: true })).data,
  });

export function useCampaignMessages(id: string, filters: { status?: MessageStatus; recipient?: string }) {
  return useInfiniteQuery({
    queryKey: campaignKeys.messages(id, filters),
    queryFn: async ({ pageParam }) =>
      (
        await http.get<SmsLogPage>(campaignPath(CAMPAIGNS_API.messages, id), {
          params: { ...filters, cursor: pageParam || undefined, limit: 25 },
          noOverlay: true,
        })
      ).data,
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** The campaign's minutes; asked again every `refreshMs` too while `refreshMs` is set. */
export const useCampaignTimeline = (id: string, refreshMs: number | false = false) =>
  useQuery({
    queryKey: campaignKeys.timeline(id),
    queryFn: async () =>
      (await http.get<CampaignTimeline>(campaignPath(CAMPAIGNS_API.timeline, id), { noOverlay: true })).data,
    refetchInterval: refreshMs,
  });

/** How often an open campaign page asks for its clicks again (clicks come for days after a send). */
const CLICKS_REFRESH_MS = 60_000;

/** A tracked campaign's clicks over time, by device and country; only asked while `enabled`. */
export const useCampaignClicks = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: campaignKeys.clicks(id),
    queryFn: async () =>
      (await http.get<CampaignClicks>(campaignPath(CAMPAIGNS_API.clicks, id), { noOverlay: true })).data,
    enabled,
    refetchInterval: CLICKS_REFRESH_MS,
  });

export type CampaignAction = 'pause' | 'resume' | 'cancel';

export function useCampaignAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: CampaignAction }) =>
      (await http.post<CampaignDto>(campaignPath(CAMPAIGNS_API[action], id))).data,
    onSuccess: async (c) => {
      queryClient.setQueryData(campaignKeys.item(c.id), c);
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all });
      await queryClient.invalidateQueries({ queryKey: balanceQueryKey });
    },
  });
}

export function useReschedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, scheduleAt, timezone }: { id: string; scheduleAt: string; timezone: string }) =>
      (await http.post<CampaignDto>(campaignPath(CAMPAIGNS_API.reschedule, id), { scheduleAt, timezone }))
        .data,
    onSuccess: async () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

export function useResendFailed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await http.post<CampaignAccepted>(campaignPath(CAMPAIGNS_API.resendFailed, id))).data,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all });
      await queryClient.invalidateQueries({ queryKey: balanceQueryKey });
    },
  });
}

export const exportCampaign = (id: string, status?: MessageStatus) =>
  downloadFile(campaignPath(CAMPAIGNS_API.export, id), `campaign-${id.slice(0, 8)}.csv`, {
    params: status ? { status } : {},
  });
