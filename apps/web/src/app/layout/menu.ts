import type { PermissionDeclaration } from '@wren/contracts';
import { paths, type AppPath } from '@/config/paths';
import {
  IconApi,
  IconBookmark,
  IconChart,
  IconClock,
  IconDashboard,
  IconId,
  IconList,
  IconMessage,
  IconMessages,
  IconReceipt,
  IconSettings,
  IconTools,
  IconUserMessage,
  IconUsers,
  type AppIcon,
} from '@/components/icons';

export interface MenuLink {
  label: string;
  to: string;
  icon: AppIcon;
  /** What the member's role needs to see the entry (the server refuses the page's calls without it). */
  permission?: PermissionDeclaration;
}

export interface MenuGroup {
  label: string;
  icon: AppIcon;
  children: MenuLink[];
}

export type MenuItem = MenuLink | MenuGroup;

export interface MenuSection {
  /** Caption above the section; none for the top entry. */
  caption?: string;
  items: MenuItem[];
}

export const isMenuGroup = (item: MenuItem): item is MenuGroup => 'children' in item;

/** A menu entry for a page: it needs what the page's route needs (config/paths.ts `permission`). */
const link = (label: string, path: AppPath, icon: AppIcon): MenuLink => ({
  label,
  to: path.path,
  icon,
  permission: path.permission,
});

/** The sidebar menu, exactly as SPEC.md §2 lists it. */
export const MENU: MenuSection[] = [
  { items: [link('Dashboard', paths.dashboard, IconDashboard)] },
  {
    caption: 'Messaging',
    items: [
      link('Single SMS', paths.sms.single, IconMessage),
      link('Bulk SMS', paths.sms.bulk, IconMessages),
      link('Personalised SMS', paths.sms.personalised, IconUserMessage),
      // Two-way threads with handsets (issue 40), beyond SPEC.md §2.
      link('Conversations', paths.conversations, IconMessages),
    ],
  },
  {
    caption: 'Reports',
    items: [
      link('SMS Log', paths.reports.smsLog, IconList),
      link('Campaign Report', paths.reports.campaigns, IconChart),
      link('Scheduled SMS', paths.reports.scheduled, IconClock),
    ],
  },
  // Billing's tabs are pages under /billing: the entry stays active on each of them.
  { caption: 'Billing', items: [link('Billing', paths.billing.root, IconReceipt)] },
  {
    caption: 'Config.',
    items: [
      link('SMS & OTP API', paths.api.list, IconApi),
      {
        label: 'Settings',
        icon: IconSettings,
        children: [
          link('Sender ID', paths.senderIds, IconId),
          link('Numbers', paths.numbers, IconId),
          link('Contact Group', paths.groups.list, IconUsers),
          link('Saved Messages', paths.templates, IconBookmark),
          link('Send window', paths.sendWindow, IconClock),
          link('Team', paths.team, IconUsers),
          link('Sub-accounts', paths.subAccounts, IconUsers),
        ],
      },
    ],
  },
];

/** The operator console (issue #16): shown below the menu to admins only. */
export const ADMIN_MENU: MenuSection = {
  caption: 'Admin',
  items: [
    {
      label: 'Admin',
      icon: IconTools,
      children: [
        { label: 'Accounts', to: paths.admin.accounts.path, icon: IconUsers },
        { label: 'Rate plans', to: paths.admin.ratePlans.path, icon: IconChart },
        { label: 'Sender ID approvals', to: paths.admin.senderIds.path, icon: IconId },
        { label: 'Top-up requests', to: paths.admin.topUps.path, icon: IconReceipt },
        { label: 'Routes', to: paths.admin.routes.path, icon: IconApi },
        { label: 'Connections', to: paths.admin.connections.path, icon: IconSettings },
        { label: 'Numbers', to: paths.admin.numbers.path, icon: IconId },
        { label: 'Margin', to: paths.admin.margin.path, icon: IconChart },
        { label: 'Audit log', to: paths.admin.audit.path, icon: IconList },
        { label: 'System status', to: paths.admin.system.path, icon: IconDashboard },
      ],
    },
  ],
};

/**
 * The menu as a role sees it: entries it has no permission for, and groups left empty, are gone.
 * Before the role is known (undefined), entries that need a permission are hidden.
 */
export function menuFor(sections: MenuSection[], can: (p: PermissionDeclaration) => boolean): MenuSection[] {
  const shown = (link: MenuLink) => !link.permission || can(link.permission);
  return sections
    .map((section) => ({
      ...section,
      items: section.items.flatMap((item): MenuItem[] => {
        if (!isMenuGroup(item)) return shown(item) ? [item] : [];
        const children = item.children.filter(shown);
        return children.length ? [{ ...item, children }] : [];
      }),
    }))
    .filter((section) => section.items.length > 0);
}

/** A menu entry is active on its own page and on the pages below it. */
export function isActivePath(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}
