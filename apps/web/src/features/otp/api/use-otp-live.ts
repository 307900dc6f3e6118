import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { hub } from '@/lib/hub';
import { otpKeys } from './otp-services';

/**
 * Keeps a service's view live: an OtpServiceUpdated(id) push (a send, a check, a block) or a
 * delivery-status push reloads its figures and verifications table.
 */
export function useOtpLive(serviceId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!serviceId) return;
    return hub.onPush((push, ...args) => {
      const forThis = push === 'OtpServiceUpdated' && String(args[0]) === serviceId;
      if (forThis || push === 'UserSmsDeliveryUpdated') {
        void queryClient.invalidateQueries({ queryKey: otpKeys.verifications(serviceId) });
        if (forThis) {
          void queryClient.invalidateQueries({ queryKey: otpKeys.stats(serviceId) });
          void queryClient.invalidateQueries({ queryKey: otpKeys.item(serviceId) });
        }
      }
    });
  }, [queryClient, serviceId]);
}
