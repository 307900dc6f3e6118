/**
 * The web app's languages (issue 47 item 4); en-US is the default (SPEC.md §9). No zod here: the
 * web app's first load reads these.
 */
export const LOCALES = ['en-US', 'es', 'fr', 'pt-BR', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';
