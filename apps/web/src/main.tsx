import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';

/*
 * The entry is small on purpose: it starts, at once and together, the download of the app, of the
 * signed-in layout and of the page in the address, and the session check (GET /api/me), instead of
 * one after another once the app has loaded and run (the router would only ask for them then).
 * The app goes first: the browser fetches in the order asked. A visitor page (/auth/...) needs no
 * layout.
 */
const path = window.location.pathname;
const ignore = () => undefined;
const app = import('./app/render');
void import('./app/session-check').then(({ sessionReady }) => sessionReady(), ignore);
if (!/^\/auth(\/|$)/.test(path)) {
  void import('./app/layout/main-layout').catch(ignore);
  if (path === '/' || path === '/dashboard')
    void import('./features/dashboard/pages/dashboard-page').catch(ignore);
}

void app.then(({ render }) => render(document.getElementById('root')!));
