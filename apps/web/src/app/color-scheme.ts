import { isMantineColorScheme, type MantineColorScheme, type MantineColorSchemeManager } from '@mantine/core';

const COOKIE = 'wren-color-scheme';

/**
 * Keeps the light/dark choice in a cookie: local storage holds only the session keys
 * (SPEC.md §3), so Mantine's local-storage manager is not used.
 */
export function cookieColorSchemeManager(): MantineColorSchemeManager {
  return {
    get(defaultValue) {
      const match = document.cookie.match(new RegExp(`(?:^|; )${COOKIE}=([^;]*)`));
      const value = match?.[1];
      return isMantineColorScheme(value) ? value : defaultValue;
    },
    set(value: MantineColorScheme) {
      document.cookie = `${COOKIE}=${value}; Path=/; Max-Age=31536000; SameSite=Lax`;
    },
    subscribe() {},
    unsubscribe() {},
    clear() {
      document.cookie = `${COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
    },
  };
}
