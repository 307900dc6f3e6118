import { Alert } from '@mantine/core';
import { IconLock } from '@/components/icons';
import { useAccountStatus } from '../api/account-status';

/** Shown on every page of a sub-account that the account managing it has locked, with its reason. */
export function SubAccountLockedBanner() {
  const status = useAccountStatus();
  if (!status.data?.locked) return null;
  return (
    <Alert color="red" icon={<IconLock size={18} />} title="This account is locked" mb="md" role="alert">
      The account that manages it has locked it{status.data.reason ? `: ${status.data.reason}` : ''}. You can
      sign in and see everything, but sending and API calls are refused until it is unlocked.
    </Alert>
  );
}
