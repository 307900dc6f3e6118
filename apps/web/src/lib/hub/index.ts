import { useEffect, useRef, useSyncExternalStore } from 'react';
import { notifications } from '@mantine/notifications';
import { HUB_PATH } from '@wren/contracts';
import { refreshSession } from '../http/client';
import { queryClient } from '../query-client';
import { getAccessToken } from '../session';
import { showToast, toast } from '../toast';
import { campaignCalls } from './hub-campaign';
import {
  createHubClient,
  HubState,
  type HubCloseReason,
  type HubSnapshot,
  type HubSocketFactory,
} from './hub-client';
import { attachHubSync } from './hub-sync';
import { lazySocketFactory } from './lazy-socket';

export {
  HubState,
  MAX_UNAUTHORIZED,
  RECONNECT_WAITS_MS,
  type HubSnapshot,
  type HubCloseReason,
} from './hub-client';
export { COALESCE_DELAY_MS } from './hub-sync';
export { hubKeys, liveQueryRoots, type BulkSmsChanged, type HubData } from './hub-keys';

export const HUB_CONNECTING_MESSAGE = 'Connecting to server...';
export const HUB_CONNECTED_MESSAGE = 'Connected to server!';
/**
 * Where every toast is (bottom-right, SPEC.md §4), for a short time: at the top centre it covered
 * the menu button and the user menu at 390 px on every load (issue 47, defect 2).
 */
export const HUB_CONNECTED_PLACEMENT = { timeOutMs: 2000 } as const;

/**
 * Socket.IO on this origin at /hub; reconnection is driven by the hub client, not the library. The
 * library loads with the first connection (lazy-socket.ts), not with the page.
 */
export const socketIoFactory: HubSocketFactory = lazySocketFactory(async () => {
  const { io } = await import('socket.io-client');
  return ({ token }) =>
    io({
      path: HUB_PATH,
      auth: { token },
      reconnection: false,
      transports: ['websocket'],
      forceNew: true,
    });
});

let connectingToast: string | null = null;

/** The app's one hub client; its data lives in the app's QueryClient. */
export const hub = createHubClient({
  createSocket: socketIoFactory,
  getAccessToken,
  refreshSession,
  notify: {
    connecting: () => {
      connectingToast = toast.warning(HUB_CONNECTING_MESSAGE);
    },
    connected: () => {
      if (connectingToast) notifications.hide(connectingToast);
      connectingToast = null;
      // Over the header's middle, where it covers no page content, and briefly (issue #15).
      showToast('success', HUB_CONNECTED_MESSAGE, undefined, HUB_CONNECTED_PLACEMENT);
    },
  },
});
attachHubSync(hub, queryClient);

export const { getCampaignDeliveryStatus, getCampaignDetail } = campaignCalls(hub);

let lastSignOut: (reason: HubCloseReason) => unknown = () => undefined;

/**
 * Connects again with the access token now stored (a switch to another account, issue 39): the
 * new socket joins that account's room.
 */
export function reconnectHub(): void {
  if (hub.getSnapshot().state === HubState.Disconnected) return;
  hub.stop();
  hub.start({ signOut: (reason) => lastSignOut(reason) });
}

/** Stops the hub; the sign-out runs it before calling the server (SPEC.md §4). */
export const stopHub = (): void => hub.stop();

/** The connection state, kept current: { state, connected }. */
export function useHubState(): HubSnapshot {
  return useSyncExternalStore(hub.subscribe, hub.getSnapshot, hub.getSnapshot);
}

/**
 * Opens the hub once the signed-in layout's header has loaded (SPEC.md §4), if there is an access
 * token, and closes it when the header goes away. `signOut` is the menu's sign-out: the hub calls
 * it when it gives up.
 */
export function useHubConnection(signOut: (reason: HubCloseReason) => unknown): void {
  const signOutRef = useRef(signOut);
  useEffect(() => {
    signOutRef.current = signOut;
    lastSignOut = (reason) => signOutRef.current(reason);
  }, [signOut]);
  useEffect(() => {
    // Unit tests render the layout with no server behind it (lib/hub's tests use a fake socket).
    if (import.meta.env.MODE === 'test') return;
    hub.start({ signOut: (reason) => signOutRef.current(reason) });
    return () => hub.stop();
  }, []);
}
