import type { ComponentType } from 'react';
import { redirect, type RouteObject } from 'react-router';
import { paths, type AppPath } from '@/config/paths';
import { requireAdmin } from '@/features/admin/require-admin';
import type { AdminPageName } from '@/features/admin/pages/admin-pages';
import type { DeveloperPageName } from './developer-pages';
import type { TwoWayPageName } from './two-way-pages';
import { alwaysRevalidate, requireUser, visitorsOnly } from './guards';
import { gated } from './permission-gate';
import { RootLayout } from './layout/root-layout';
import { RouteErrorPage } from './pages/route-error-page';
import type { RouteHandle } from './route-handle';
import { sessionReady } from './session-check';

type PageModule = Promise<{ default: ComponentType }>;

/** A route that only redirects (its loader always throws a redirect), so it renders nothing. */
const redirectTo = (href: string) => ({ loader: () => redirect(href), element: null });

/**
 * A titled route whose page is its own code chunk. The router's `lazy` loads the chunk while the
 * navigation is pending (in parallel with the guards), so a page renders complete: no loading
 * flash, and an anchor in the address finds its target on the first render.
 */
function page(path: AppPath, load: () => PageModule): RouteObject {
  return {
    path: path.path,
    // A page that needs a permission shows "Your role (X) can't …" to a role without it.
    lazy: async () => ({ Component: gated((await load()).default, path.permission) }),
    handle: { title: path.title } satisfies RouteHandle,
  };
}

/** An operator console page, through the one small module that loads them (admin-pages.ts). */
const adminPage = (name: AdminPageName) => () =>
  import('@/features/admin/pages/admin-pages').then((m) => m.loadAdminPage(name));

/** The developer pages (OTP, API keys, SMPP), through one small module too (developer-pages.ts). */
const developerPage = (name: DeveloperPageName) => () =>
  import('./developer-pages').then((m) => m.loadDeveloperPage(name));

/** Conversations and numbers, through one small module too (two-way-pages.ts). */
const twoWayPage = (name: TwoWayPageName) => () =>
  import('./two-way-pages').then((m) => m.loadTwoWayPage(name));

/** A grouping route: adds a breadcrumb (linked when `to` is set) above its pages. */
function group(handle: RouteHandle, children: RouteObject[]): RouteObject {
  return { handle, children };
}

const to = (path: AppPath) => path.path;

/** The pages that need a signed-in user (SPEC.md §2). */
const mainPages: RouteObject[] = [
  page(paths.dashboard, () => import('@/features/dashboard/pages/dashboard-page')),
  group({ title: 'Messaging' }, [
    page(paths.sms.single, () => import('@/features/messaging/pages/single-sms-page')),
    page(paths.sms.bulk, () => import('@/features/messaging/pages/bulk-sms-page')),
    page(paths.sms.personalised, () => import('@/features/messaging/pages/personalised-sms-page')),
    page(paths.conversations, twoWayPage('conversations')),
  ]),
  group({ title: 'Reports' }, [
    page(paths.reports.smsLog, () => import('@/features/reports/pages/sms-log-page')),
    page(paths.reports.campaigns, () => import('@/features/reports/pages/campaign-report-page')),
    page(paths.reports.scheduled, () => import('@/features/reports/pages/scheduled-sms-page')),
    group({ title: paths.reports.campaigns.title, to: to(paths.reports.campaigns) }, [
      page(paths.reports.campaignDetail, () => import('@/features/reports/pages/campaign-detail-page')),
    ]),
  ]),
  group({ title: paths.billing.root.title, to: to(paths.billing.root) }, [
    {
      path: paths.billing.root.path,
      ...redirectTo(paths.billing.statements.getHref()),
      handle: { title: paths.billing.root.title } satisfies RouteHandle,
    },
    page(paths.billing.statements, () => import('@/features/billing/pages/statements-page')),
    page(paths.billing.balance, () => import('@/features/billing/pages/balance-page')),
    page(paths.billing.prices, () => import('@/features/billing/pages/prices-page')),
    page(paths.billing.ledger, () => import('@/features/billing/pages/ledger-page')),
  ]),
  group({ title: paths.profile.view.title, to: to(paths.profile.view) }, [
    page(paths.profile.view, () => import('@/features/profile/pages/profile-page')),
    page(paths.profile.update, () => import('@/features/profile/pages/update-profile-page')),
    page(paths.profile.password, () => import('@/features/profile/pages/change-password-page')),
    page(paths.profile.apiDetail, () => import('@/features/profile/pages/api-detail-page')),
    page(paths.profile.apiDoc, () => import('@/features/profile/pages/api-doc-page')),
  ]),
  group({ title: 'Settings' }, [
    page(paths.senderIds, () => import('@/features/sender-ids/pages/sender-ids-page')),
    page(paths.numbers, twoWayPage('numbers')),
    group({ title: paths.groups.list.title, to: to(paths.groups.list) }, [
      page(paths.groups.list, () => import('@/features/contacts/pages/groups-page')),
      page(paths.groups.contacts, () => import('@/features/contacts/pages/group-contacts-page')),
    ]),
    page(paths.templates, () => import('@/features/templates/pages/templates-page')),
    page(paths.team, () => import('@/features/members/pages/team-page')),
    page(paths.sendWindow, () => import('@/features/campaigns/pages/send-window-page')),
    group({ title: paths.subAccounts.title, to: to(paths.subAccounts) }, [
      page(paths.subAccounts, () => import('@/features/sub-accounts/pages/sub-accounts-page')),
      page(paths.subAccount, () => import('@/features/sub-accounts/pages/sub-account-page')),
    ]),
  ]),
  group({ title: paths.otp.list.title, to: to(paths.otp.list) }, [
    page(paths.otp.list, developerPage('otpServices')),
    page(paths.otp.create, developerPage('otpServiceCreate')),
    group({ title: paths.otp.doc.title, to: to(paths.otp.doc) }, [
      page(paths.otp.doc, developerPage('otpDoc')),
      page(paths.otp.docItem, developerPage('otpDocItem')),
    ]),
    page(paths.otp.edit, developerPage('otpServiceEdit')),
    page(paths.otp.view, developerPage('otpServiceView')),
    page(paths.otp.test, developerPage('otpServiceTest')),
  ]),
  group({ title: paths.api.list.title, to: to(paths.api.list) }, [
    page(paths.api.list, developerPage('apiList')),
    page(paths.api.create, developerPage('apiCreate')),
    page(paths.api.doc, developerPage('apiDoc')),
    page(paths.api.edit, developerPage('apiEdit')),
    page(paths.api.view, developerPage('apiView')),
    page(paths.api.report, developerPage('apiReport')),
    group({ title: paths.smpp.list.title, to: to(paths.smpp.list) }, [
      page(paths.smpp.list, developerPage('smppList')),
      page(paths.smpp.create, developerPage('smppCreate')),
      page(paths.smpp.view, developerPage('smppView')),
    ]),
    page(paths.smpp.doc, developerPage('smppDoc')),
  ]),
  // The operator console (issue #16): its loader sends anyone but an admin to the 404 page.
  {
    loader: requireAdmin,
    shouldRevalidate: alwaysRevalidate,
    handle: { title: 'Admin' } satisfies RouteHandle,
    children: [
      page(paths.admin.accounts, adminPage('accounts')),
      group({ title: paths.admin.accounts.title, to: to(paths.admin.accounts) }, [
        page(paths.admin.account, adminPage('account')),
      ]),
      page(paths.admin.ratePlans, adminPage('ratePlans')),
      page(paths.admin.senderIds, adminPage('senderIds')),
      page(paths.admin.audit, adminPage('audit')),
      page(paths.admin.system, adminPage('system')),
      page(paths.admin.topUps, adminPage('topUps')),
      page(paths.admin.routes, adminPage('routes')),
      page(paths.admin.connections, adminPage('connections')),
      page(paths.admin.numbers, adminPage('numbers')),
      page(paths.admin.margin, adminPage('margin')),
    ],
  },
];

/** The visitor pages under /auth. */
const authPages: RouteObject[] = [
  { path: paths.auth.root.path, ...redirectTo(paths.auth.login.getHref()) },
  page(paths.auth.login, () => import('@/features/auth/pages/login-page')),
  page(paths.auth.register, () => import('@/features/auth/pages/register-page')),
  page(paths.auth.forgotPassword, () => import('@/features/auth/pages/forgot-password-page')),
  page(paths.auth.resetPassword, () => import('@/features/auth/pages/reset-password-page')),
  page(paths.auth.confirmRegistration, () => import('@/features/auth/pages/confirm-registration-page')),
];

export const routes: RouteObject[] = [
  {
    id: 'root',
    // The first navigation waits for the session check: no flash of the wrong page.
    loader: async () => {
      await sessionReady();
      return null;
    },
    HydrateFallback: () => null,
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    children: [
      { index: true, ...redirectTo(paths.dashboard.getHref()) },
      page(paths.notFound, () => import('./pages/not-found-page')),
      // Layouts load (as their own chunks) while the navigation is pending, before the first render.
      {
        lazy: async () => ({ Component: (await import('./layout/auth-layout')).AuthLayout }),
        loader: visitorsOnly,
        shouldRevalidate: alwaysRevalidate,
        children: authPages,
      },
      // An invite's link: for visitors and signed-in users alike (accepting adds the account).
      {
        lazy: async () => ({ Component: (await import('./layout/auth-layout')).AuthLayout }),
        children: [page(paths.invite, () => import('@/features/members/pages/accept-invite-page'))],
      },
      {
        lazy: async () => ({ Component: (await import('./layout/main-layout')).MainLayout }),
        loader: requireUser,
        shouldRevalidate: alwaysRevalidate,
        handle: { title: 'Home', to: paths.dashboard.path } satisfies RouteHandle,
        children: mainPages,
      },
      { path: '*', ...redirectTo(paths.notFound.getHref()) },
    ],
  },
];
