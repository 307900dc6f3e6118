import { notifications, type NotificationData } from '@mantine/notifications';
import { translate } from './i18n';

/** Toast settings (SPEC.md §8, §9). The <Notifications> host uses the same position and transition. */
export const TOAST_OPTIONS = {
  position: 'bottom-right',
  timeOutMs: 5000,
  extendedTimeOutMs: 1000,
  transitionMs: 300,
} as const;

export type ToastType = 'success' | 'error' | 'info' | 'warning';

const COLORS: Record<ToastType, string> = { success: 'teal', error: 'red', info: 'blue', warning: 'yellow' };
const TITLES: Record<ToastType, string> = {
  success: 'Done',
  error: 'Error',
  info: 'Info',
  warning: 'Warning',
};

interface ActiveToast {
  id: string;
  timer?: ReturnType<typeof setTimeout>;
}

const active = new Map<string, ActiveToast>();
let sequence = 0;

function closeAfter(toast: ActiveToast, ms: number): void {
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => notifications.hide(toast.id), ms);
}

/**
 * Shows a toast. A duplicate (same message and type) of one still showing is not shown again;
 * instead the time-out of the one showing starts over. Hovering holds a toast open, and it
 * closes 1000 ms after the pointer leaves. A tap or click dismisses it.
 */
export interface ToastPlacement {
  /** Where this toast shows; the default is TOAST_OPTIONS.position. */
  position?: NotificationData['position'];
  /** How long it shows; the default is TOAST_OPTIONS.timeOutMs. */
  timeOutMs?: number;
}

export function showToast(
  type: ToastType,
  message: string,
  title: string = TITLES[type],
  placement: ToastPlacement = {},
): string {
  const timeOutMs = placement.timeOutMs ?? TOAST_OPTIONS.timeOutMs;
  const key = `${type}\u0000${message}`;
  const existing = active.get(key);
  if (existing) {
    closeAfter(existing, timeOutMs);
    return existing.id;
  }
  const toast: ActiveToast = { id: `toast-${++sequence}` };
  active.set(key, toast);
  notifications.show({
    id: toast.id,
    ...(placement.position ? { position: placement.position } : {}),
    // In the user's language where the text is one of the resource files' (lib/i18n.ts).
    title: translate(title),
    message: translate(message),
    color: COLORS[type],
    autoClose: false,
    withBorder: true,
    closeButtonProps: { 'aria-label': 'Close notification' },
    style: { whiteSpace: 'pre-line', cursor: 'pointer', transitionTimingFunction: 'ease' },
    'data-toast-type': type,
    onClick: () => notifications.hide(toast.id),
    onMouseEnter: () => clearTimeout(toast.timer),
    onMouseLeave: () => closeAfter(toast, TOAST_OPTIONS.extendedTimeOutMs),
    onClose: () => {
      clearTimeout(toast.timer);
      active.delete(key);
    },
  });
  closeAfter(toast, timeOutMs);
  return toast.id;
}

export const toast = {
  success: (message: string, title?: string) => showToast('success', message, title),
  error: (message: string, title?: string) => showToast('error', message, title),
  info: (message: string, title?: string) => showToast('info', message, title),
  warning: (message: string, title?: string) => showToast('warning', message, title),
};
