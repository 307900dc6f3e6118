import type { PermissionDeclaration } from '@wren/contracts';
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

/** The sidebar menu, exactly as SPEC.md §2 lists it. */
export const MENU: MenuSection[] = [
  { items: [{ label: 'Dashboard', to: paths.dashboard.path, icon: IconDashboard }] },
  {
    caption: 'Messaging',
    items: [
      { label: 'Single SMS', to: paths.sms.single.path, icon: IconMessage, permission: 'messages:send' },
      { label: 'Bulk SMS', to: paths.sms.bulk.path, icon: IconMessages, permission: 'messages:send' },
      {
        label: 'Personalised SMS',
        to: paths.sms.personalised.path,
        icon: IconUserMessage,
        permission: 'messages:send',
      },
    ],
  },
  {
    caption: 'Reports',
    items: [
      { label: 'SMS Log', to: paths.reports.smsLog.path, icon: IconList, permission: 'messages:read' },
      {
        label: 'Campaign Report',
        to: paths.reports.campaigns.path,
        icon: IconChart,
        permission: 'messages:read',
      },
      {
        label: 'Scheduled SMS',
        to: paths.reports.scheduled.path,
        icon: IconClock,
        permission: 'messages:read',
      },
    ],
  },
  {
    caption: 'Config.',
    items: [
      { label: 'SMS & OTP API', to: paths.api.list.path, icon: IconApi, permission: 'developer:manage' },
      {
        label: 'Settings',
        icon: IconSettings,
        children: [
          { label: 'Sender ID', to: paths.senderIds.path, icon: IconId, permission: 'sender-ids:read' },
          {
            label: 'Contact Group',
            to: paths.groups.list.path,
            icon: IconUsers,
            permission: 'contacts:read',
          },
          {
            label: 'Saved Messages',
            to: paths.templates.path,
            icon: IconBookmark,
            permission: 'templates:read',
          },
          { label: 'Team', to: paths.team.path, icon: IconUsers, permission: 'members:read' },
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
