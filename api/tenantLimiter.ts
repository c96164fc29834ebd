import { ApiError } from './errors';

/**
 * Caps how many requests of one kind a user has in flight in this API process:
 * uploads stream files into the object store, searches embed the query through the user's
 * provider, re-embeds start a run per document. Without a cap one tenant could hold every
 * connection, provider slot or worker slot. Over the cap the answer is 429 with Retry-After.
 */
export interface TenantLimiter {
  /** Runs `work` in one of the user's slots, or throws 429 when they are all taken. */
  run<T>(userId: string, work: () => Promise<T>): Promise<T>;
  /** Requests of this kind the user has in flight now. */
  inFlight(userId: string): number;
}

export function createTenantLimiter(what: string, setting: string, maxPerUser: number): TenantLimiter {
  const open = new Map<string, number>();
  return {
    async run(userId, work) {
      const current = open.get(userId) ?? 0;
      if (current >= maxPerUser)
        throw new ApiError(
          429,
          'TOO_MANY_CONCURRENT_REQUESTS',
          `you already have ${current} ${what} in progress (the limit is ${maxPerUser}, ${setting}); wait for one to finish`,
          { 'retry-after': '1' },
        );
      open.set(userId, current + 1);
      try {
        return await work();
      } finally {
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) open.set(userId, left);
        else open.delete(userId);
      }
    },
    inFlight: (userId) => open.get(userId) ?? 0,
  };
}
