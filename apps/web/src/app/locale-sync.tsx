import { useEffect } from 'react';
import { DEFAULT_LOCALE } from '@wren/contracts';
import { currentLocale, isLocale, storedLocale } from '@/lib/i18n';
import { useCurrentUser } from '@/lib/use-session';

/**
 * Shows the app in the signed-in user's language (their profile's), else the one last chosen on this
 * device, else English. The code that switches loads only when another language is wanted.
 */
export function LocaleSync() {
  const user = useCurrentUser();
  const wanted = user && isLocale(user.locale) ? user.locale : (storedLocale() ?? DEFAULT_LOCALE);
  useEffect(() => {
    if (wanted !== currentLocale()) void import('@/lib/i18n-runtime').then((m) => m.applyLocale(wanted));
  }, [wanted]);
  return null;
}
