import type { TokenPair, User } from '@wren/contracts';

/** The only local storage keys the app writes (SPEC.md §3). */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  user: 'user',
} as const;

type Listener = () => void;
const listeners = new Set<Listener>();
let cachedUserJson: string | null = null;
let cachedUser: User | null = null;

function notify(): void {
  for (const listener of listeners) listener();
}

export function getAccessToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.accessToken);
}

export function getRefreshToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.refreshToken);
}

/** Authorized means an access token is held in local storage (SPEC.md §4). */
export function isAuthorized(): boolean {
  return Boolean(getAccessToken());
}

export function getUser(): User | null {
  const json = localStorage.getItem(STORAGE_KEYS.user);
  if (json !== cachedUserJson) {
    cachedUserJson = json;
    try {
      cachedUser = json ? (JSON.parse(json) as User) : null;
    } catch {
      cachedUser = null;
    }
  }
  return cachedUser;
}

export function setTokens(tokens: TokenPair): void {
  localStorage.setItem(STORAGE_KEYS.accessToken, tokens.accessToken);
  localStorage.setItem(STORAGE_KEYS.refreshToken, tokens.refreshToken);
  notify();
}

export function setUser(user: User): void {
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  notify();
}

export function setSession(session: TokenPair & { user: User }): void {
  setTokens(session);
  setUser(session.user);
}

/** Clears all stored data. */
export function clearSession(): void {
  for (const key of Object.values(STORAGE_KEYS)) localStorage.removeItem(key);
  notify();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values<string>(STORAGE_KEYS).includes(event.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
