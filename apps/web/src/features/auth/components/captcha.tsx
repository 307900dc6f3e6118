import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type {} from 'altcha/types/react';
import type { WidgetMethods } from 'altcha/types';
import { API } from '@wren/contracts';

let loading: Promise<void> | undefined;

/**
 * Loads the ALTCHA widget once, in its own chunk. The CSP-friendly build (`altcha/external`): its
 * proof-of-work worker is a file of ours (script-src 'self'), not a blob.
 */
function loadWidget(): Promise<void> {
  loading ??= (async () => {
    await import('altcha/external');
    const { default: Pbkdf2Worker } = await import('altcha/workers/pbkdf2?worker');
    globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
  })();
  return loading;
}

type Widget = HTMLElement & WidgetMethods;

/**
 * The self-hosted proof-of-work check on register and forgot-password (ALTCHA): invisible, solved
 * in a worker as soon as the page loads. `solution()` gives the payload for the X-Altcha header
 * (waiting for the work if it is still running; undefined if the widget could not load, and the
 * server then decides); `renew()` starts a new one after a submit, as a payload is single-use.
 */
export function useCaptcha(): {
  widget: ReactNode;
  solution: () => Promise<string | undefined>;
  renew: () => void;
} {
  const ref = useRef<Widget | null>(null);
  const payload = useRef<string | undefined>(undefined);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let live = true;
    loadWidget().then(
      () => live && setReady(true),
      () => undefined, // no widget (old browser, blocked script): the server's answer says what to do
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!ready || !el) return;
    const onState = (ev: Event) => {
      const detail = (ev as CustomEvent<{ state: string; payload?: string }>).detail;
      payload.current = detail.state === 'verified' ? detail.payload : undefined;
    };
    el.addEventListener('statechange', onState);
    return () => el.removeEventListener('statechange', onState);
  }, [ready]);

  const solution = useCallback(async () => {
    if (payload.current) return payload.current;
    const el = ref.current;
    if (!el || typeof el.verify !== 'function') return undefined;
    try {
      return (await el.verify())?.payload ?? undefined;
    } catch {
      return undefined;
    }
  }, []);

  const renew = useCallback(() => {
    payload.current = undefined;
    const el = ref.current;
    if (el && typeof el.reset === 'function') {
      el.reset();
      void el.verify().catch(() => undefined);
    }
  }, []);

  const widget = ready ? (
    <altcha-widget ref={ref} challenge={API.captcha} auto="onload" display="invisible" />
  ) : null;
  return { widget, solution, renew };
}
