import { FAIRNESS_KEY_MAX_BYTES, fairnessKeyOf, tenantPriority } from '../../contracts/fairness';

// Temporal refuses a fairness key past 64 bytes; user ids may be up to 200 characters.

it('keys a tenant by its user id, and a long or non-ASCII one by a prefix and a hash within 64 bytes', () => {
  expect(fairnessKeyOf('acme')).toBe('acme');
  const long = 'tenant-'.repeat(30);
  const key = fairnessKeyOf(long);
  expect(Buffer.byteLength(key)).toBeLessThanOrEqual(FAIRNESS_KEY_MAX_BYTES);
  expect(key.startsWith('tenant-tenant-')).toBe(true);
  // Stable, and distinct for ids that share the prefix.
  expect(fairnessKeyOf(long)).toBe(key);
  expect(fairnessKeyOf(`${long}x`)).not.toBe(key);
  const han = '租户'.repeat(20);
  expect(Buffer.byteLength(fairnessKeyOf(han))).toBeLessThanOrEqual(FAIRNESS_KEY_MAX_BYTES);
});

it("carries a tenant's weight only when the deployment gives one", () => {
  expect(tenantPriority('acme', undefined)).toEqual({ fairnessKey: 'acme' });
  expect(tenantPriority('acme', 3)).toEqual({ fairnessKey: 'acme', fairnessWeight: 3 });
});
