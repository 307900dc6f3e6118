import type { Ref, RefCallback } from 'react';
import { useMergedRef } from '@mantine/hooks';

/**
 * `useMergeRefs` of @floating-ui/react, for Mantine's ScrollArea (vite.config.ts points its import
 * here): the same merged ref from @mantine/hooks, so a scroll area, a table among them, does not
 * bring the whole floating-UI library (menus, popovers, tooltips) into the first load.
 */
export function useMergeRefs<T>(refs: (Ref<T> | undefined)[]): RefCallback<T> {
  return useMergedRef<T>(...refs);
}
