import { ApiError } from '../../../api/errors';
import { createTenantLimiter } from '../../../api/tenantLimiter';

describe('per-user concurrency limit', () => {
  it('answers 429 past the limit for that user only, and frees the slot when the work ends or fails', async () => {
    const limiter = createTenantLimiter('searches', 'SLUICE_API_MAX_CONCURRENT_SEARCHES', 2);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = limiter.run('alice', () => held);
    const second = limiter.run('alice', () => held);
    expect(limiter.inFlight('alice')).toBe(2);
    const refused: unknown = await limiter.run('alice', () => Promise.resolve('x')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).statusCode).toBe(429);
    expect((refused as ApiError).headers['retry-after']).toBe('1');
    expect(await limiter.run('bob', () => Promise.resolve('bob ok'))).toBe('bob ok');
    release();
    await Promise.all([first, second]);
    expect(limiter.inFlight('alice')).toBe(0);
    await expect(limiter.run('alice', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(limiter.inFlight('alice')).toBe(0);
    expect(await limiter.run('alice', () => Promise.resolve(1))).toBe(1);
  });
});
