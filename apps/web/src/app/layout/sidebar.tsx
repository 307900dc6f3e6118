import { lazy, Suspense, useState } from 'react';
import { Box, Divider, Group, NavLink, ScrollArea, Text, ThemeIcon } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { useCurrentUser } from '@/lib/use-session';
import { roleCan } from '@wren/contracts';
import { useAccountRole } from '@/lib/account-role';
import { useIsChildAccount } from '@/features/sub-accounts/api/account-status';
import { ADMIN_MENU, MENU, isActivePath, isMenuGroup, menuFor, type MenuGroup, type MenuLink } from './menu';
import classes from './sidebar.module.css';

interface SidebarProps {
  /** Icons only, with the labels as tooltips. */
  folded?: boolean;
  /** Called after a menu link is followed (closes the mobile drawer). */
  onNavigate?: () => void;
}

export function Brand({ folded = false }: { folded?: boolean }) {
  const t = useT();
  return (
    <Group
      renderRoot={(props) => (
        <Link to={paths.dashboard.getHref()} aria-label={t('Wren, go to dashboard')} {...props} />
      )}
      gap="sm"
      wrap="nowrap"
      className={classes.brand}
    >
      <ThemeIcon
        size={34}
        radius="md"
        variant="gradient"
        gradient={{ from: 'indigo.6', to: 'cyan.5', deg: 135 }}
      >
        {/* The letter is drawn by CSS, so the link's visible text is just "Wren", part of its name. */}
        <span className={classes.logoLetter} aria-hidden="true" />
      </ThemeIcon>
      {!folded && (
        <Text fw={700} fz="xl" className={classes.brandTitle}>
          Wren
        </Text>
      )}
    </Group>
  );
}

/** The folded sidebar's tooltips: their code loads only once the sidebar is folded. */
const SidebarTooltip = lazy(() => import('./sidebar-tooltip'));

function LinkItem({
  item,
  folded,
  onNavigate,
}: {
  item: MenuLink;
  folded: boolean;
  onNavigate?: () => void;
}) {
  const { pathname } = useLocation();
  const t = useT();
  const Icon = item.icon;
  const label = t(item.label);
  const link = (
    <NavLink
      component={Link}
      to={item.to}
      label={folded ? undefined : label}
      aria-label={folded ? label : undefined}
      leftSection={<Icon />}
      active={isActivePath(pathname, item.to)}
      aria-current={isActivePath(pathname, item.to) ? 'page' : undefined}
      onClick={onNavigate}
      className={folded ? classes.foldedLink : classes.link}
    />
  );
  if (!folded) return link;
  return (
    <Suspense fallback={link}>
      <SidebarTooltip label={label}>{link}</SidebarTooltip>
    </Suspense>
  );
}

function GroupItem({ group, onNavigate }: { group: MenuGroup; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const t = useT();
  const Icon = group.icon;
  const childActive = group.children.some((child) => isActivePath(pathname, child.to));
  const [opened, setOpened] = useState(childActive);
  return (
    <NavLink
      component="button"
      label={t(group.label)}
      leftSection={<Icon />}
      opened={opened}
      onChange={setOpened}
      active={childActive && !opened}
      aria-expanded={opened}
      childrenOffset={28}
      className={classes.link}
    >
      {group.children.map((child) => (
        <LinkItem key={child.to} item={child} folded={false} onNavigate={onNavigate} />
      ))}
    </NavLink>
  );
}

export function Sidebar({ folded = false, onNavigate }: SidebarProps) {
  const t = useT();
  const isAdmin = useCurrentUser()?.role === 'admin';
  const role = useAccountRole();
  // Sub-accounts are one level deep: a child account has no Sub-accounts entry.
  const isChild = useIsChildAccount();
  const sections = menuFor(isAdmin ? [...MENU, ADMIN_MENU] : MENU, (p) =>
    // The operator console is for operators whatever their role in an account.
    p === 'subaccounts:manage' ? !isChild && roleCan(role, p) : roleCan(role, p),
  );
  return (
    <Box component="nav" aria-label={t('Main menu')} className={classes.nav}>
      <ScrollArea className={classes.scroll} type="scroll">
        {sections.map((section, index) => (
          <Box
            key={section.caption ?? index}
            className={classes.section}
            role="group"
            aria-label={section.caption && t(section.caption)}
          >
            {section.caption &&
              (folded ? (
                <Divider my="xs" />
              ) : (
                <Text className={classes.caption} component="div">
                  {t(section.caption)}
                </Text>
              ))}
            {section.items.map((item) => {
              if (!isMenuGroup(item))
                return <LinkItem key={item.to} item={item} folded={folded} onNavigate={onNavigate} />;
              if (!folded) return <GroupItem key={item.label} group={item} onNavigate={onNavigate} />;
              return item.children.map((child) => (
                <LinkItem key={child.to} item={child} folded onNavigate={onNavigate} />
              ));
            })}
          </Box>
        ))}
      </ScrollArea>
    </Box>
  );
}
