import { Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { IconLogout, IconUser } from '@/components/icons';
import { paths } from '@/config/paths';
import { ProfileAvatar } from '@/features/profile/components/profile-avatar';
import { useCurrentUser } from '@/lib/use-session';
import { useSignOut } from '../use-sign-out';
import classes from './main-layout.module.css';

export function UserMenu() {
  const user = useCurrentUser();
  const signOut = useSignOut();
  if (!user) return null;
  return (
    <Menu position="bottom-end" width={220} shadow="md" withArrow>
      <Menu.Target>
        {/* Named by its content ("Account menu for <name>"), so the visible name is part of it. */}
        <UnstyledButton className={classes.userButton}>
          <Group gap="xs" wrap="nowrap">
            <ProfileAvatar user={user} size={32} radius="xl" variant="filled" color="indigo" aria-hidden />
            <VisuallyHidden component="span">Account menu for</VisuallyHidden>{' '}
            {/* On a phone the name is hidden from sight only (main-layout.module.css). */}
            <Text component="span" size="sm" fw={500} className={classes.userName}>
              {user.name}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          Signed in as <strong>{user.username}</strong>
        </Menu.Label>
        <Menu.Item component={Link} to={paths.profile.view.getHref()} leftSection={<IconUser size={16} />}>
          Profile
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
