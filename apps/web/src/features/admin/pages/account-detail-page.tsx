import { SimpleGrid, Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useAccount } from '../api/admin-api';
import { AccountAdjustmentCard } from '../components/account-adjustment-card';
import { AccountHeader } from '../components/account-header';
import { AccountLedgerCard } from '../components/account-ledger-card';
import { AccountLockCard } from '../components/account-lock-card';
import { AccountMessagesCard } from '../components/account-messages-card';
import { AccountPlanLimitsCard } from '../components/account-plan-limits-card';
import { AccountTreeCard } from '../components/account-tree-card';
import { AccountUsersCard } from '../components/account-users-card';
import { ErrorBlock, LoadingBlock } from '../components/common';

/** One account for an admin: its balance and adjustments, plan and limits, access, users, SMS log and ledger. */
export default function AccountDetailPage() {
  const t = useT();
  const { id = '' } = useParams();
  const account = useAccount(id);
  if (account.isPending) return <LoadingBlock label={t('Loading the account…')} />;
  if (account.isError)
    return <ErrorBlock message={messageOf(account.error)} onRetry={() => void account.refetch()} />;
  const a = account.data;
  return (
    <Stack gap="lg">
      <AccountHeader account={a} />
      <SimpleGrid cols={{ base: 1, lg: 3 }}>
        <AccountAdjustmentCard account={a} />
        <AccountPlanLimitsCard key={`${a.ratePlanId}-${JSON.stringify(a.limits)}`} account={a} />
        <AccountLockCard account={a} />
      </SimpleGrid>
      <AccountTreeCard account={a} />
      <AccountUsersCard account={a} />
      <AccountMessagesCard account={a} />
      <AccountLedgerCard account={a} />
    </Stack>
  );
}
