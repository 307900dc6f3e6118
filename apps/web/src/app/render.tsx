import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';

/** Mounts the app (main.tsx loads this module alongside the first page's code). */
export function render(container: HTMLElement): void {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
