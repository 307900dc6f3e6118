import { useSyncExternalStore } from 'react';
import { busy } from '@/lib/busy';
import { useT } from '@/lib/i18n';

/**
 * The full-screen busy overlay (SPEC.md §4, §9). Its look (ball-spin-fade, white on
 * rgba(0,0,0,0.8), z-index 99999, fade in 300 ms / out 200 ms) is the `.wren-overlay` CSS in
 * index.html, shared with the boot overlay shown before the app mounts.
 */
export function BusyOverlay() {
  const visible = useSyncExternalStore(busy.subscribe, busy.isVisible);
  const t = useT();
  return (
    <div
      className={visible ? 'wren-overlay is-visible' : 'wren-overlay'}
      role="status"
      aria-live="polite"
      aria-hidden={!visible}
      data-testid="busy-overlay"
    >
      <div className="wren-spinner" aria-hidden="true">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} />
        ))}
      </div>
      <p className="wren-overlay-text">{t('Loading...')}</p>
    </div>
  );
}
