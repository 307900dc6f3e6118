import { Alert } from '@mantine/core';
import { IconLock } from '@/components/icons';
import { useAccountStatus } from '../api/account-status';
import { useT } from '@/lib/i18n';

/** Shown on every page of a sub-account that the account managing it has locked, with its reason. */
export function SubAccountLockedBanner() {
  const status = useAccountStatus();
  const t = useT();
  if (!status.data?.locked) return null;
  return (
    <Alert color="red" icon={<IconLock size={18} />} title={t('This account is locked')} mb="md" role="alert">
      {t(
        'The account that manages it has locked it{{reason}}. You can sign in and see everything, but sending and API calls are refused until it is unlocked.',
        { reason: status.data.reason ? `: ${status.data.reason}` : '' },
      )}
    </Alert>
  );
}
