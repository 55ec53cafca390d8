/**
 * The TanStack Query client. Query-level retries are off: the retry policy of spec §8 lives in the HTTP client
 * alone, so a failing call is not multiplied by a second retry layer.
 */
import { QueryClient } from '@tanstack/react-query';

/** The console's query client. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
    mutations: { retry: false },
  },
});
