import { useSyncExternalStore } from 'react';
import type { User } from '@wren/contracts';
import { getUser, subscribeSession } from './session';

/** The signed-in user as stored in local storage, kept current. */
export function useCurrentUser(): User | null {
  return useSyncExternalStore(subscribeSession, getUser);
}
