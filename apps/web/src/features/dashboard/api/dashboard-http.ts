import { createBusyCounter } from '@/lib/busy';
import { createHttpClient } from '@/lib/http/client';

/**
 * The dashboard's reads run in the background (live refetches after each push, polling while the
 * hub is down), so they stay off the full-screen busy overlay: the same client (token, shared
 * refresh, XSRF, error catalogue) with a busy counter nothing displays. The cards show skeletons.
 */
export const dashboardHttp = createHttpClient({ busy: createBusyCounter() });
