import { Burger, Group } from '@mantine/core';
import { EventsMenu } from '@/features/account-events/components/events-menu';
import { useHubConnection } from '@/lib/hub';
import { ConnectionBadge } from '@/lib/hub/connection-badge';
import { useSignOut } from '../use-sign-out';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { Brand } from './sidebar';
import { UserMenu } from './user-menu';

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
  const label = isMobile ? (menuOpen ? 'Close menu' : 'Open menu') : menuOpen ? 'Fold menu' : 'Unfold menu';
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
        <ConnectionBadge />
        <ColorSchemeToggle />
        <EventsMenu />
        <UserMenu />
      </Group>
    </Group>
  );
}
