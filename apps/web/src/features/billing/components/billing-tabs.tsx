import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { roleCan } from '@wren/contracts';
import { useAccountRole } from '@/lib/account-role';
import { useT } from '@/lib/i18n';

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
  const t = useT();
  const shown = TABS.filter((tab) => !tab.path.permission || roleCan(role, tab.path.permission));
  return (
    <Tabs
      value={pathname}
      onChange={(value) => value && void navigate(value)}
      aria-label={t('Billing sections')}
      mb="md"
    >
      <Tabs.List>
        {shown.map((tab) => (
          <Tabs.Tab key={tab.path.path} value={tab.path.path}>
            {t(tab.label)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
