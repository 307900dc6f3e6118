import { lazy, Suspense } from 'react';
import { AppShell, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { useRouteTitle } from '../route-handle';
import { SubAccountLockedBanner } from '@/features/sub-accounts/components/locked-banner';
import { Breadcrumbs } from './breadcrumbs';
import { Footer } from './footer';
import { Header } from './header';
import { Brand, Sidebar } from './sidebar';
import classes from './main-layout.module.css';
import { useT } from '@/lib/i18n';

/** The phone's drawer menu: its code (Mantine's Drawer, focus trap, scroll lock) loads on phones only. */
const MobileMenu = lazy(() => import('./mobile-menu'));

/** Below 768 px the sidebar is a drawer (Mantine's `sm` breakpoint is 48em). */
export const MOBILE_QUERY = '(max-width: 47.99em)';
const HEADER_HEIGHT = 60;

export function MainLayout() {
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const [drawerOpen, drawer] = useDisclosure(false);
  const [folded, fold] = useDisclosure(false);
  const title = useRouteTitle();
  const t = useT();

  return (
    <AppShell
      layout="alt"
      header={{ height: HEADER_HEIGHT }}
      navbar={{ width: folded ? 76 : 264, breakpoint: 'sm', collapsed: { mobile: true } }}
      padding={0}
    >
      <a href="#main-content" className={classes.skipLink}>
        {t('Skip to content')}
      </a>
      <AppShell.Header className={classes.header}>
        <Header
          isMobile={isMobile}
          menuOpen={isMobile ? drawerOpen : !folded}
          onToggleMenu={isMobile ? drawer.toggle : fold.toggle}
        />
      </AppShell.Header>

      <AppShell.Navbar id="sidebar" data-folded={folded || undefined} visibleFrom="sm">
        <div className={classes.brandBar} style={{ height: HEADER_HEIGHT }}>
          <Brand folded={folded} />
        </div>
        <Sidebar folded={folded} />
      </AppShell.Navbar>

      {isMobile && (
        <Suspense fallback={null}>
          <MobileMenu opened={drawerOpen} onClose={drawer.close} />
        </Suspense>
      )}

      <AppShell.Main className={classes.main}>
        <div id="main-content" className={classes.content} tabIndex={-1}>
          <Breadcrumbs />
          <SubAccountLockedBanner />
          {title && (
            <Title order={1} className={classes.title}>
              {title}
            </Title>
          )}
          <Outlet />
        </div>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}
