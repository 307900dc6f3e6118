import { useLayoutEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';

/** What the loaded component is told: the pointer is over it (a tooltip can open at once). */
export interface DeferredComponentProps {
  hovered: boolean;
}

interface DeferredProps {
  /** Loads the full component (its own code chunk). */
  load: () => Promise<ComponentType<DeferredComponentProps>>;
  /**
   * A look-alike shown until then: the same button, without the floating parts (menu, popover,
   * tooltip) whose code a first page load does not need.
   */
  children: ReactNode;
  /**
   * The look-alike only opens the full component: a click on it before the code has arrived is
   * passed on to the full component once it has (a menu opens, as if the code had been there).
   * Leave unset when the look-alike does the click's work itself.
   */
  replayClick?: boolean;
}

/**
 * A control whose floating parts load on first use. The code is fetched as soon as the pointer
 * reaches the control or it receives keyboard focus, so it is usually in place before the click;
 * focus moves to the full control, and a click that came first is replayed (`replayClick`).
 */
export function Deferred({ load, children, replayClick = false }: DeferredProps) {
  const [Loaded, setLoaded] = useState<ComponentType<DeferredComponentProps> | null>(null);
  const wrapper = useRef<HTMLSpanElement>(null);
  const intent = useRef({ started: false, hovered: false, clicked: false, focused: false });

  const start = () => {
    if (intent.current.started) return;
    intent.current.started = true;
    load().then(
      (component) => {
        const active = document.activeElement;
        intent.current.focused = !!active && !!wrapper.current?.contains(active);
        setLoaded(() => component);
      },
      () => {
        intent.current.started = false; // a later hover or focus tries again
      },
    );
  };

  useLayoutEffect(() => {
    if (!Loaded) return;
    const { focused, clicked } = intent.current;
    intent.current.clicked = false;
    const target = wrapper.current?.querySelector<HTMLElement>('button, [tabindex]');
    if (focused) target?.focus();
    if (replayClick && clicked) target?.click();
  }, [Loaded, replayClick]);

  return (
    <span
      ref={wrapper}
      style={{ display: 'contents' }}
      onPointerEnter={() => {
        intent.current.hovered = true;
        start();
      }}
      onPointerLeave={() => {
        intent.current.hovered = false;
      }}
      onFocus={start}
      onClick={() => {
        if (Loaded) return;
        intent.current.clicked = true;
        start();
      }}
    >
      {Loaded ? <Loaded hovered={intent.current.hovered} /> : children}
    </span>
  );
}
