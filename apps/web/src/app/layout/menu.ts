import { paths } from '@/config/paths';
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

/** The sidebar menu, exactly as SPEC.md §2 lists it. */
export const MENU: MenuSection[] = [
  { items: [{ label: 'Dashboard', to: paths.dashboard.path, icon: IconDashboard }] },
  {
    caption: 'Messaging',
    items: [
      { label: 'Single SMS', to: paths.sms.single.path, icon: IconMessage },
      { label: 'Bulk SMS', to: paths.sms.bulk.path, icon: IconMessages },
      { label: 'Personalised SMS', to: paths.sms.personalised.path, icon: IconUserMessage },
    ],
  },
  {
    caption: 'Reports',
    items: [
      { label: 'SMS Log', to: paths.reports.smsLog.path, icon: IconList },
      { label: 'Campaign Report', to: paths.reports.campaigns.path, icon: IconChart },
      { label: 'Scheduled SMS', to: paths.reports.scheduled.path, icon: IconClock },
    ],
  },
  {
    caption: 'Config.',
    items: [
      { label: 'SMS & OTP API', to: paths.api.list.path, icon: IconApi },
      {
        label: 'Settings',
        icon: IconSettings,
        children: [
          { label: 'Sender ID', to: paths.senderIds.path, icon: IconId },
          { label: 'Contact Group', to: paths.groups.list.path, icon: IconUsers },
          { label: 'Saved Messages', to: paths.templates.path, icon: IconBookmark },
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
        { label: 'Audit log', to: paths.admin.audit.path, icon: IconList },
        { label: 'System status', to: paths.admin.system.path, icon: IconDashboard },
      ],
    },
  ],
};

/** A menu entry is active on its own page and on the pages below it. */
export function isActivePath(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}
