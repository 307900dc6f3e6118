import { Select } from '@mantine/core';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { toast } from '@/lib/toast';
import { useMyAccounts, useSwitchAccount } from '../api/members';

/** The header's account switcher, shown when the user belongs to more than one account (issue 39). */
export function AccountSwitcher() {
  const accounts = useMyAccounts();
  const switchAccount = useSwitchAccount();
  const navigate = useNavigate();
  const items = accounts.data ?? [];
  if (items.length < 2) return null;
  const current = items.find((a) => a.current);
  return (
    <Select
      aria-label="Account"
      size="xs"
      w={{ base: 130, sm: 200 }}
      data={items.map((a) => ({ value: a.accountId, label: a.name }))}
      value={current?.accountId ?? null}
      allowDeselect={false}
      disabled={switchAccount.isPending}
      comboboxProps={{ withinPortal: true }}
      onChange={(accountId) => {
        if (!accountId || accountId === current?.accountId) return;
        switchAccount.mutate(accountId, {
          onSuccess: () => {
            toast.success(
              `Switched to ${items.find((a) => a.accountId === accountId)?.name ?? 'the account'}`,
            );
            void navigate(paths.dashboard.getHref());
          },
          onError: (e) => toast.error(e.message),
        });
      }}
    />
  );
}
