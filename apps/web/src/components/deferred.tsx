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
  const intent = useRef({ started: false, hovered: false, clicked: false, focused: false, pressed: false });
  /** Code that arrived while a button was pressed: swapped in after the click, not between down and up. */
  const arrived = useRef<ComponentType<DeferredComponentProps> | null>(null);

  const swapIn = (component: ComponentType<DeferredComponentProps>) => {
    const active = document.activeElement;
    intent.current.focused = !!active && !!wrapper.current?.contains(active);
    setLoaded(() => component);
  };

  const start = () => {
    if (intent.current.started) return;
    intent.current.started = true;
    load().then(
      (component) => {
        // Replacing the button between pointerdown and pointerup would lose the click (it would
        // land on no button): wait for the press to end.
        if (intent.current.pressed) arrived.current = component;
        else swapIn(component);
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
      onPointerDown={() => {
        intent.current.pressed = true;
        // The press ends wherever the pointer is released; the click (if any) follows the release
        // in the same task, so the swap waits one more turn.
        const release = () => {
          window.removeEventListener('pointerup', release, true);
          window.removeEventListener('pointercancel', release, true);
          intent.current.pressed = false;
          setTimeout(() => {
            const component = arrived.current;
            arrived.current = null;
            if (component && !intent.current.pressed) swapIn(component);
          }, 0);
        };
        window.addEventListener('pointerup', release, true);
        window.addEventListener('pointercancel', release, true);
      }}
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
