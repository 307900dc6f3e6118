import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  TWO_FACTOR_API,
  type AccountTwoFactorPolicy,
  type RecoveryCodes,
  type TwoFactorDisableInput,
  type TwoFactorEnrollment,
  type TwoFactorStatus,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

/** The signed-in user's two-factor settings (issue 39 item 3). */
const statusKey = ['me', 'two-factor'] as const;

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: statusKey,
    queryFn: async () => (await http.get<TwoFactorStatus>(TWO_FACTOR_API.status)).data,
  });
}

function useInvalidating<I, O>(fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: statusKey }) });
}

/** Starts an enrollment: the secret, its otpauth URI and QR image (shown once). */
export const useStartEnrollment = () =>
  useMutation({
    mutationFn: async () => (await http.post<TwoFactorEnrollment>(TWO_FACTOR_API.enrollStart)).data,
  });

export const useConfirmEnrollment = () =>
  useInvalidating(
    async (code: string) => (await http.post<RecoveryCodes>(TWO_FACTOR_API.enrollConfirm, { code })).data,
  );

export const useDisableTwoFactor = () =>
  useInvalidating(async (input: TwoFactorDisableInput) => {
    await http.post(TWO_FACTOR_API.disable, input);
  });

export const useRegenerateRecoveryCodes = () =>
  useInvalidating(
    async (code: string) => (await http.post<RecoveryCodes>(TWO_FACTOR_API.recoveryCodes, { code })).data,
  );

export const useSetAccountRequirement = () =>
  useInvalidating(
    async (requireTwoFactor: boolean) =>
      (await http.put<AccountTwoFactorPolicy>(TWO_FACTOR_API.accountPolicy, { requireTwoFactor })).data,
  );
