import type { ComponentPropsWithRef } from 'react';
import { Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { User } from '@wren/contracts';
import { Deferred } from '@/components/deferred';
import { ProfileAvatar } from '@/features/profile/components/profile-avatar';
import { useCurrentUser } from '@/lib/use-session';
import classes from './main-layout.module.css';
import { useT } from '@/lib/i18n';

type UserMenuButtonProps = ComponentPropsWithRef<'button'> & { user: User };

/** The account menu's button; the menu passes its ref, state and event handlers through `props`. */
export function UserMenuButton({ user, ...props }: UserMenuButtonProps) {
  const t = useT();
  return (
    // Named by its content ("Account menu for <name>"), so the visible name is part of it.
    <UnstyledButton {...props} className={classes.userButton}>
      <Group gap="xs" wrap="nowrap">
        <ProfileAvatar user={user} size={32} radius="xl" variant="filled" color="indigo" aria-hidden />
        <VisuallyHidden component="span">{t('Account menu for')}</VisuallyHidden>{' '}
        {/* On a phone the name is hidden from sight only (main-layout.module.css). */}
        <Text component="span" size="sm" fw={500} className={classes.userName}>
          {user.name}
        </Text>
      </Group>
    </UnstyledButton>
  );
}

/**
 * The account menu (profile, sign out). Its button shows at once; the menu's code loads when the
 * pointer or keyboard focus reaches the button, and a click made before it arrived opens the menu.
 */
export function UserMenu() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <Deferred load={() => import('./user-menu-dropdown').then((m) => m.UserMenuDropdown)} replayClick>
      <UserMenuButton user={user} aria-haspopup="menu" aria-expanded={false} />
    </Deferred>
  );
}
