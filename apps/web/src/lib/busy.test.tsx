import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { BusyOverlay } from '@/components/busy-overlay';
import { busy, countsAsBusy, createBusyCounter } from './busy';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('busy counter', () => {
  it('shows while requests are in flight and hides 300 ms after the last completes', () => {
    const counter = createBusyCounter();
    const changes = vi.fn();
    counter.subscribe(changes);
    counter.start();
    counter.start();
    expect(counter.isVisible()).toBe(true);
    counter.stop();
    vi.advanceTimersByTime(1000);
    expect(counter.isVisible()).toBe(true);
    counter.stop();
    expect(counter.count()).toBe(0);
    vi.advanceTimersByTime(299);
    expect(counter.isVisible()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(counter.isVisible()).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('stays up when a new request starts within the 300 ms', () => {
    const counter = createBusyCounter();
    counter.start();
    counter.stop();
    vi.advanceTimersByTime(200);
    counter.start();
    vi.advanceTimersByTime(500);
    expect(counter.isVisible()).toBe(true);
    counter.stop();
    vi.advanceTimersByTime(300);
    expect(counter.isVisible()).toBe(false);
  });

  it('never goes below zero', () => {
    const counter = createBusyCounter();
    counter.stop();
    expect(counter.count()).toBe(0);
    expect(counter.isVisible()).toBe(false);
  });
});

describe('overlay exclusions', () => {
  it.each([
    ['post', '/api/sms/log', false],
    ['post', '/api/reports/dt', false],
    ['post', '/api/reports/smsdt', false],
    ['post', '/api/reports/dt?page=2', false],
    ['get', '/api/reports/dt', true],
    ['get', '/api/sms/log', true],
    ['post', '/api/me/picture/fileUpload', false],
    ['get', '/fileUpload/status', false],
    ['post', '/api/sms/logs', true],
    ['post', '/api/sms/single', true],
    ['get', '/api/me', true],
  ])('%s %s counts: %s', (method, url, counts) => {
    expect(countsAsBusy(method, url)).toBe(counts);
  });
});

describe('<BusyOverlay>', () => {
  it('renders "Loading..." and follows the app counter', () => {
    render(<BusyOverlay />);
    const overlay = screen.getByTestId('busy-overlay');
    expect(overlay).toHaveTextContent('Loading...');
    expect(overlay).not.toHaveClass('is-visible');
    act(() => busy.start());
    expect(overlay).toHaveClass('is-visible');
    act(() => busy.stop());
    expect(overlay).toHaveClass('is-visible');
    act(() => {
      vi.advanceTimersByTime(300);
    });
    expect(overlay).not.toHaveClass('is-visible');
  });
});
