import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notifications, notificationsStore, type NotificationData } from '@mantine/notifications';
import { toast } from './toast';

type Handlers = { onMouseEnter: () => void; onMouseLeave: () => void; onClick: () => void };
const shown = () => notificationsStore.getState().notifications;
const handlers = (n: NotificationData) => n as unknown as Handlers;

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  notifications.clean();
  vi.useRealTimers();
});

describe('toast', () => {
  it('closes after 5000 ms', () => {
    toast.success('Saved');
    expect(shown()).toHaveLength(1);
    expect(shown()[0]).toMatchObject({ message: 'Saved', color: 'teal', autoClose: false });
    vi.advanceTimersByTime(4999);
    expect(shown()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(shown()).toHaveLength(0);
  });

  it('suppresses a duplicate (same message and type) and restarts the time-out of the one showing', () => {
    const first = toast.error('Network down');
    vi.advanceTimersByTime(4000);
    const second = toast.error('Network down');
    expect(second).toBe(first);
    expect(shown()).toHaveLength(1);
    vi.advanceTimersByTime(4000);
    expect(shown()).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(shown()).toHaveLength(0);
  });

  it('shows the same message with another type separately', () => {
    toast.error('Heads up');
    toast.warning('Heads up');
    expect(shown()).toHaveLength(2);
  });

  it('stays open while hovered and closes 1000 ms after the pointer leaves', () => {
    toast.info('Hover me');
    const toastData = handlers(shown()[0]!);
    vi.advanceTimersByTime(3000);
    toastData.onMouseEnter();
    vi.advanceTimersByTime(60_000);
    expect(shown()).toHaveLength(1);
    toastData.onMouseLeave();
    vi.advanceTimersByTime(999);
    expect(shown()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(shown()).toHaveLength(0);
  });

  it('is dismissed by a tap, after which the same message shows again', () => {
    toast.success('Tap me');
    handlers(shown()[0]!).onClick();
    expect(shown()).toHaveLength(0);
    toast.success('Tap me');
    expect(shown()).toHaveLength(1);
  });
});
