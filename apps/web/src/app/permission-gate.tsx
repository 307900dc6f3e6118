import type { ComponentType } from 'react';
import type { Permission } from '@wren/contracts';
import { NoPermission } from '@/components/can';
import { useCan } from '@/lib/account-role';

/**
 * A route's page behind its path's permission (config/paths.ts, issue 39): a role without it sees
 * "Your role (X) can't …" instead, and the page (and its requests, which the server would refuse)
 * never mounts.
 */
export function gated(Page: ComponentType, permission: Permission | undefined): ComponentType {
  if (!permission) return Page;
  const needed: Permission = permission;
  function GatedPage() {
    return useCan(needed) ? <Page /> : <NoPermission permission={needed} />;
  }
  GatedPage.displayName = `Gated(${Page.displayName ?? Page.name ?? 'Page'})`;
  return GatedPage;
}
