import { createBusyCounter } from '@/lib/busy';
import { createHttpClient } from '@/lib/http/client';

/**
 * The client for reading the SMS log. SPEC.md §4 keeps the log's own requests (POST …/log, …dt)
 * off the full-screen busy overlay, but our log is read with GET, which lib/busy's rule does not
 * recognise; polling every 3 s would flash the overlay. This is the same client (token, refresh,
 * XSRF, error catalogue) with a busy counter nothing displays: the log pages show their own
 * skeletons and spinners instead.
 *
 * TODO(app shell): replace with a per-request opt-out of the busy counter in lib/http/client.ts.
 */
export const logHttp = createHttpClient({ busy: createBusyCounter() });
