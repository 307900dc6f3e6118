import { QueryClient } from '@tanstack/react-query';

/** Retries are off: the HTTP client already refreshes the session once on a 401. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
