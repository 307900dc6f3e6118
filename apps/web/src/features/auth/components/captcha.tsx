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
    // The external build ships its styles apart: without them `display="invisible"` hides nothing,
    // and the register page showed a raw checkbox, a stray tick and a plain link (issue 47, defect 1).
    await Promise.all([import('altcha/external'), import('altcha/altcha.css')]);
    const { default: Pbkdf2Worker } = await import('altcha/workers/pbkdf2?worker');
    globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
  })();
  return loading;
}

type Widget = HTMLElement & WidgetMethods;

/**
 * The self-hosted proof-of-work check on register and forgot-password (ALTCHA): invisible, solved
 * in a worker as soon as the widget is in the page. `solution()` gives the payload for the X-Altcha
 * header, waiting for the widget's code and for the work if either is still on its way (undefined if
 * the widget could not load, and the server then decides); `renew()` starts a new one after a
 * submit, as a payload is single-use.
 *
 * This hook alone starts the work, one run at a time: the widget's own `auto` start would race a
 * submit's `verify()`, and a second `verify()` aborts the first, so the submit got no payload.
 */
export function useCaptcha(): {
  widget: ReactNode;
  solution: () => Promise<string | undefined>;
  renew: () => void;
} {
  const ref = useRef<Widget | null>(null);
  const work = useRef<{ result: Promise<string | undefined>; startedAt: number } | null>(null);
  const [ready, setReady] = useState(false);
  // Settles when the widget element is in the page, for a submit made before it was.
  const [mounted] = useState(() => deferred<Widget>());

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

  const start = useCallback((el: Widget) => {
    const result = el.verify().then(
      (r) => r?.payload ?? undefined,
      () => undefined,
    );
    work.current = { result, startedAt: Date.now() };
    return result;
  }, []);

  const attach = useCallback(
    (el: Widget | null) => {
      ref.current = el;
      if (!el) return;
      // The element gets its methods once its component has started, a moment after it connects.
      void usable(el).then((ok) => {
        if (!ok || ref.current !== el) return;
        mounted.resolve(el);
        void start(el);
      });
    },
    [mounted, start],
  );

  const solution = useCallback(async () => {
    const loaded = await loadWidget().then(
      () => true,
      () => false,
    );
    if (!loaded) return undefined;
    const el = await Promise.race([mounted.promise, delay(MOUNT_WAIT_MS)]);
    if (!el) return undefined;
    const current = work.current;
    const fresh = current && Date.now() - current.startedAt < REUSE_MS ? await current.result : undefined;
    // No run yet, an old one, or one that failed: one more, now.
    return fresh ?? (await start(el));
  }, [mounted, start]);

  const renew = useCallback(() => {
    const el = ref.current;
    work.current = null;
    if (el && typeof el.reset === 'function' && typeof el.verify === 'function') {
      el.reset();
      void start(el);
    }
  }, [start]);

  const widget = ready ? <altcha-widget ref={attach} challenge={API.captcha} display="invisible" /> : null;
  return { widget, solution, renew };
}

/** How long a submit waits for the widget to be in the page and usable once its code has loaded. */
const MOUNT_WAIT_MS = 5_000;
/** A solution older than this is not sent: the server's challenges live 10 minutes. */
const REUSE_MS = 8 * 60_000;

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Whether the widget's methods appear within MOUNT_WAIT_MS. */
async function usable(el: Widget): Promise<boolean> {
  const until = Date.now() + MOUNT_WAIT_MS;
  while (typeof el.verify !== 'function') {
    if (Date.now() > until) return false;
    await delay(10);
  }
  return true;
}

function delay(ms: number): Promise<undefined> {
  return new Promise((r) => setTimeout(() => r(undefined), ms));
}
