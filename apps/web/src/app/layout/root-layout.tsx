import { useEffect } from 'react';
import { Outlet, ScrollRestoration, type Location } from 'react-router';
import { BusyOverlay } from '@/components/busy-overlay';
import { busy } from '@/lib/busy';
import { useRouteTitle } from '../route-handle';
import { useT } from '@/lib/i18n';

const APP_TITLE = 'Wren — OTP, single SMS and bulk SMS messaging';

/**
 * Scroll positions are saved per history entry. Every freshly loaded document starts on an entry
 * keyed "default", so those are keyed by address instead; otherwise a new page would inherit the
 * scroll position of the last page loaded in the tab (and lose its #anchor).
 */
const scrollKey = (location: Location) =>
  location.key === 'default' ? `${location.pathname}${location.search}` : location.key;

/** Removes index.html's "Loading..." overlay once the first page is ready. */
function removeBootOverlay(): void {
  const overlay = document.getElementById('boot-overlay');
  if (!overlay) return;
  if (busy.isVisible()) {
    overlay.remove(); // the busy overlay, identical, takes over without a flicker
    return;
  }
  overlay.classList.remove('is-visible');
  setTimeout(() => overlay.remove(), 250);
}

export function RootLayout() {
  const title = useRouteTitle();
  const t = useT();
  useEffect(removeBootOverlay, []);
  useEffect(() => {
    document.title = title ? `${title} · Wren` : t(APP_TITLE);
  }, [title, t]);

  return (
    <>
      <ScrollRestoration getKey={scrollKey} />
      <Outlet />
      <BusyOverlay />
    </>
  );
}
