import { useMemo } from 'react';
import type { InfiniteData } from '@tanstack/react-query';

/** A keyset-paged list's rows so far: every loaded page's items, in order. */
export function useKeysetRows<T>(data: InfiniteData<{ items: T[] }> | undefined): T[] {
  return useMemo(() => data?.pages.flatMap((p) => p.items) ?? [], [data]);
}
