import { Menu } from '@mantine/core';
import { Link } from 'react-router';
import { IconLogout, IconUser } from '@/components/icons';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { useCurrentUser } from '@/lib/use-session';
import { useSignOut } from '../use-sign-out';
import { UserMenuButton } from './user-menu';

/** The account menu itself (user-menu.tsx loads it on first use). */
export function UserMenuDropdown() {
  const user = useCurrentUser();
  const signOut = useSignOut();
  const t = useT();
  if (!user) return null;
  return (
    <Menu position="bottom-end" width={220} shadow="md" withArrow>
      <Menu.Target>
        <UserMenuButton user={user} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {t('Signed in as')} <strong>{user.username}</strong>
        </Menu.Label>
        <Menu.Item component={Link} to={paths.profile.view.getHref()} leftSection={<IconUser size={16} />}>
          {t('Profile')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
          {t('Sign out')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
