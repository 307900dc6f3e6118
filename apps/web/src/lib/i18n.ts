import { useSyncExternalStore } from 'react';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@wren/contracts';

/**
 * The web app's languages (issue 47 item 4). Translations are done by i18next (lib/i18n-runtime.ts),
 * loaded with the first language other than English; `src/locales/*.json` hold one flat object per
 * locale whose keys are the English text (gettext style), and locales.test.ts fails when a locale
 * lacks a key of en-US.json or changes its placeholders. Components call `useT()`; English, the
 * default, is the keys themselves, so the first load carries neither i18next nor the code that
 * switches languages (applyLocale in lib/i18n-runtime.ts): the bundle budget.
 */

export const isLocale = (v: unknown): v is Locale => (LOCALES as readonly unknown[]).includes(v);

/** Where the last chosen language is kept, so visitor pages and the first paint use it too. */
export const STORAGE_KEY = 'wren.locale';

export type Translate = (key: string, values?: Record<string, string | number>) => string;

/** English: the key is the text; only {{placeholders}} are filled in. */
const english: Translate = (key, values) =>
  values ? key.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? '')) : key;

let state: { locale: Locale; t: Translate } = { locale: DEFAULT_LOCALE, t: english };

/** Switches every `useT` to `locale` (lib/i18n-runtime.ts's applyLocale, once its strings are in). */
export function setTranslator(locale: Locale, t: Translate | null): void {
  state = { locale, t: t ?? english };
  for (const fn of listeners) fn();
}
const listeners = new Set<() => void>();
const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};

/** The locale the app shows now. */
export const currentLocale = (): Locale => state.locale;

/** Translates outside React (toasts, formatters); components use `useT`. */
export const translate: Translate = (key, values) => state.t(key, values);

/** The current language's translate function; the component re-renders when the language changes. */
export function useT(): Translate {
  return useSyncExternalStore(subscribe, () => state).t;
}

/** The locale stored on this device, if any. */
export function storedLocale(): Locale | null {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return isLocale(v) ? v : null;
  } catch {
    return null;
  }
}
