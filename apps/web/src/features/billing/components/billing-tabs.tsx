import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { roleCan } from '@wren/contracts';
import { useAccountRole } from '@/lib/account-role';

/**
 * The Billing page's sections, one tab per page under /billing (issue 47: Balance with top-up and
 * the low-balance alert, Prices, Ledger); each tab shows only to a role with its page's permission.
 */
const TABS = [
  { label: 'Balance', path: paths.billing.balance },
  { label: 'Prices', path: paths.billing.prices },
  { label: 'Ledger', path: paths.billing.ledger },
  { label: 'Statements', path: paths.billing.statements },
] as const;

export function BillingTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const role = useAccountRole();
  const shown = TABS.filter((t) => !t.path.permission || roleCan(role, t.path.permission));
  return (
    <Tabs
      value={pathname}
      onChange={(value) => value && void navigate(value)}
      aria-label="Billing sections"
      mb="md"
    >
      <Tabs.List>
        {shown.map((t) => (
          <Tabs.Tab key={t.path.path} value={t.path.path}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
