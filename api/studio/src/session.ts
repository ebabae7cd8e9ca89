import { useQuery } from '@tanstack/react-query';
import { ApiError, get } from './api';
import type { Me } from './types';

/** The signed-in member (`GET /auth/me`), or null when there is no session. */
export function useMe() {
  return useQuery({
    queryKey: ['me'],
    queryFn: async (): Promise<Me | null> => {
      try {
        return await get<Me>('/auth/me');
      } catch (err) {
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
}
