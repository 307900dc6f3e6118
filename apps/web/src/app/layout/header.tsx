import { ActionIcon, Burger, Group } from '@mantine/core';
import { Deferred } from '@/components/deferred';
import { IconBell } from '@/components/icons';
import { lazy, Suspense } from 'react';
import { useMyAccounts } from '@/features/members/api/my-accounts';
import { useHubConnection } from '@/lib/hub';
import { ConnectionBadge } from '@/lib/hub/connection-badge';
import { useSignOut } from '../use-sign-out';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { Brand } from './sidebar';
import { UserMenu } from './user-menu';
import { useT } from '@/lib/i18n';

/**
 * The notifications menu (features/account-events): its bell shows at once, its popover's code
 * loads when the pointer or keyboard focus reaches the bell; a click before that opens it on arrival.
 */
function NotificationsMenu() {
  const t = useT();
  return (
    <Deferred
      load={() => import('@/features/account-events/components/events-menu').then((m) => m.EventsMenu)}
      replayClick
    >
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={t('Notifications')}
        aria-expanded={false}
      >
        <IconBell />
      </ActionIcon>
    </Deferred>
  );
}

const AccountSwitcher = lazy(() =>
  import('@/features/members/components/account-switcher').then((m) => ({ default: m.AccountSwitcher })),
);

/**
 * The account switcher (issue 39), its own chunk, loaded only for a user with more than one account
 * (a cold page of a one-account user loads none of it: e2e bundle-budget).
 */
function AccountSwitcherSlot() {
  const accounts = useMyAccounts();
  if ((accounts.data?.length ?? 0) < 2) return null;
  return (
    <Suspense fallback={null}>
      <AccountSwitcher />
    </Suspense>
  );
}

interface HeaderProps {
  /** On a phone the sidebar is a drawer; elsewhere it folds to icons. */
  isMobile: boolean;
  /** The drawer is open (phone) or the sidebar unfolded (wider screens). */
  menuOpen: boolean;
  onToggleMenu: () => void;
}

export function Header({ isMobile, menuOpen, onToggleMenu }: HeaderProps) {
  // The live-update hub opens once the header has loaded; giving up signs out like the menu does.
  useHubConnection(useSignOut());
  const t = useT();
  const label = isMobile
    ? menuOpen
      ? t('Close menu')
      : t('Open menu')
    : menuOpen
      ? t('Fold menu')
      : t('Unfold menu');
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={isMobile && menuOpen}
          onClick={onToggleMenu}
          size="sm"
          aria-label={label}
          aria-expanded={menuOpen}
          aria-controls={isMobile ? 'mobile-menu' : 'sidebar'}
        />
        {isMobile && <Brand />}
      </Group>
      <Group gap={4} wrap="nowrap">
        <AccountSwitcherSlot />
        <ConnectionBadge />
        <ColorSchemeToggle />
        <NotificationsMenu />
        <UserMenu />
      </Group>
    </Group>
  );
}
