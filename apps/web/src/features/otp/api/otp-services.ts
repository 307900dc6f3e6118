import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fillApiPath,
  OTP_API,
  type CreateOtpServiceInput,
  type OtpServiceDto,
  type OtpServiceList,
  type OtpStats,
  type OtpVerificationPage,
  type UpdateOtpServiceInput,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

/** Every OTP query lives under this root; an OtpServiceUpdated push invalidates it. */
export const otpKeys = {
  all: ['otp-services'] as const,
  list: ['otp-services', 'list'] as const,
  item: (id: string) => ['otp-services', 'item', id] as const,
  stats: (id: string) => ['otp-services', 'stats', id] as const,
  verifications: (id: string) => ['otp-services', 'verifications', id] as const,
};

const browserTimezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export const useOtpServices = () =>
  useQuery({
    queryKey: otpKeys.list,
    queryFn: async () => (await http.get<OtpServiceList>(OTP_API.list)).data.items,
  });

export const useOtpService = (id: string) =>
  useQuery({
    queryKey: otpKeys.item(id),
    // Live reads (refetched on OtpServiceUpdated pushes) stay off the full-screen busy overlay.
    queryFn: async () =>
      (await http.get<OtpServiceDto>(fillApiPath(OTP_API.item, { id }), { noOverlay: true })).data,
    enabled: Boolean(id),
    retry: false,
  });

export const useOtpStats = (id: string) =>
  useQuery({
    queryKey: otpKeys.stats(id),
    queryFn: async () =>
      (
        await http.get<OtpStats>(fillApiPath(OTP_API.stats, { id }), {
          params: { timezone: browserTimezone(), days: 30 },
          noOverlay: true,
        })
      ).data,
    enabled: Boolean(id),
  });

export const useOtpVerifications = (id: string) =>
  useInfiniteQuery({
    queryKey: otpKeys.verifications(id),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await http.get<OtpVerificationPage>(fillApiPath(OTP_API.verifications, { id }), {
          params: { limit: 25, ...(pageParam ? { cursor: pageParam } : {}) },
          noOverlay: true,
        })
      ).data,
    getNextPageParam: (last) => last.nextCursor,
    enabled: Boolean(id),
  });

export function useSaveOtpService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id?: string; values: CreateOtpServiceInput | UpdateOtpServiceInput }) =>
      input.id
        ? (await http.patch<OtpServiceDto>(fillApiPath(OTP_API.item, { id: input.id }), input.values)).data
        : (await http.post<OtpServiceDto>(OTP_API.list, input.values)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: otpKeys.all }),
  });
}

export function useDeleteOtpService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await http.delete(fillApiPath(OTP_API.item, { id }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: otpKeys.all }),
  });
}
