import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { logout, type BeforeSignOut } from '@/features/auth/api/logout';
import { stopHub } from '@/lib/hub';

/** Every sign-out stops the live-update hub first (SPEC.md §4). */
const DEFAULT_HOOKS: BeforeSignOut[] = [stopHub];

/**
 * The menu's sign-out (SPEC.md §4): stop live work first (the hub client adds its stop here),
 * sign out, drop cached data, then go to the login page; if signing out fails, reload.
 */
export function useSignOut(beforeSignOut: BeforeSignOut[] = DEFAULT_HOOKS) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    try {
      await logout({ beforeSignOut });
    } catch {
      queryClient.clear();
      window.location.reload();
      return;
    }
    queryClient.clear();
    await navigate(paths.auth.login.getHref(), { replace: true });
  }, [beforeSignOut, navigate, queryClient]);
}
