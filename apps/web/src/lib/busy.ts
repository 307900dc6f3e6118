/**
 * The busy overlay's global counter (SPEC.md §4): it rises for each request in flight and falls
 * at each completion. The overlay shows while it is above zero and hides 300 ms after it
 * returns to zero.
 */
export const BUSY_HIDE_DELAY_MS = 300;

type Listener = () => void;

export interface BusyCounter {
  start: () => void;
  stop: () => void;
  count: () => number;
  isVisible: () => boolean;
  subscribe: (listener: Listener) => () => void;
}

export function createBusyCounter(hideDelayMs = BUSY_HIDE_DELAY_MS): BusyCounter {
  let inFlight = 0;
  let visible = false;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<Listener>();

  const setVisible = (next: boolean) => {
    if (next === visible) return;
    visible = next;
    for (const listener of listeners) listener();
  };

  return {
    start() {
      inFlight += 1;
      clearTimeout(hideTimer);
      hideTimer = undefined;
      setVisible(true);
    },
    stop() {
      if (inFlight === 0) return;
      inFlight -= 1;
      if (inFlight === 0) {
        clearTimeout(hideTimer);
        hideTimer = setTimeout(() => setVisible(false), hideDelayMs);
      }
    },
    count: () => inFlight,
    isVisible: () => visible,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app-wide counter used by the HTTP client and the overlay. */
export const busy = createBusyCounter();

/** POSTs ending in "dt" or "/log", and any URL containing "fileUpload", do not count. */
export function countsAsBusy(method: string | undefined, url: string | undefined): boolean {
  const target = url ?? '';
  if (target.includes('fileUpload')) return false;
  const pathOnly = target.split(/[?#]/, 1)[0] ?? '';
  const isPost = (method ?? 'get').toUpperCase() === 'POST';
  return !(isPost && (pathOnly.endsWith('dt') || pathOnly.endsWith('/log')));
}
