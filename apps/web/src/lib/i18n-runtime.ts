import i18next from 'i18next';
import { DEFAULT_LOCALE, type Locale } from '@wren/contracts';
import en from '@/locales/en-US.json';
import { setTranslator, STORAGE_KEY, type Translate } from './i18n';

/**
 * i18next itself, loaded with the first language other than English (lib/i18n.ts): English text is
 * the key, so English needs no lookup and the first load stays within its budget (bundle-budget
 * test). Keys are plain text ("Config.", "SMS & OTP API"): no key or namespace separators.
 */
const loaders = import.meta.glob<{ default: Record<string, string> }>([
  '../locales/*.json',
  '../locales/*/*.json',
  '!../locales/en-US.json',
  '!../locales/*/en-US.json',
]);

/**
 * A locale's strings: `locales/<locale>.json` (the shell) and one file per area of the app,
 * `locales/<area>/<locale>.json`, merged (locales.test.ts checks a key repeated in two files reads
 * the same in both).
 */
async function stringsOf(locale: Locale): Promise<Record<string, string>> {
  const files = Object.entries(loaders).filter(([file]) => file.endsWith(`/${locale}.json`));
  const parts = await Promise.all(files.map(([, load]) => load()));
  return Object.assign({}, ...parts.map((p) => p.default)) as Record<string, string>;
}

const ready = i18next.init({
  lng: 'en-US',
  fallbackLng: 'en-US',
  resources: { 'en-US': { translation: en } },
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** A translator for `locale`, its strings loaded once. */
export async function translatorFor(locale: Locale): Promise<Translate> {
  await ready;
  if (!i18next.hasResourceBundle(locale, 'translation')) {
    i18next.addResourceBundle(locale, 'translation', await stringsOf(locale));
  }
  const t = i18next.getFixedT(locale);
  return (key, values) => t(key, values ?? {});
}

const RTL: ReadonlySet<Locale> = new Set(['ar']);
export const directionOf = (locale: Locale): 'rtl' | 'ltr' => (RTL.has(locale) ? 'rtl' : 'ltr');

/**
 * Shows the app in `locale`: loads its strings once, switches every `useT`, and sets the page's
 * `lang` and `dir` (right-to-left for Arabic), which Mantine's styles follow.
 */
export async function applyLocale(locale: Locale): Promise<void> {
  setTranslator(locale, locale === DEFAULT_LOCALE ? null : await translatorFor(locale));
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private mode: the profile still remembers it.
  }
}
