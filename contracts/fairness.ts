/** A Temporal Priority that names its tenant (a fairness key) and maybe that tenant's weight. */
export interface TenantPriority {
  fairnessKey: string;
  fairnessWeight?: number;
}

/** Temporal refuses a longer fairness key. */
export const FAIRNESS_KEY_MAX_BYTES = 64;

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** 32-bit FNV-1a, hex: pure, so the workflow computes the same key as the client on replay. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * The tenant's fairness key on every task queue (docs/operations.md, fairness): the user id, or
 * for an id past Temporal's 64 bytes its first 40 ASCII characters and a hash of the whole.
 */
export function fairnessKeyOf(userId: string): string {
  if (utf8Bytes(userId) <= FAIRNESS_KEY_MAX_BYTES) return userId;
  const head = userId.replace(/[^\x20-\x7e]/g, '_').slice(0, 40);
  return `${head}~${fnv1a(userId)}`;
}

/** A run's priority: its tenant's key and, where the deployment weighs tenants (SLUICE_FAIRNESS_WEIGHTS), the weight. */
export function tenantPriority(userId: string, weight: number | undefined): TenantPriority {
  return weight === undefined
    ? { fairnessKey: fairnessKeyOf(userId) }
    : { fairnessKey: fairnessKeyOf(userId), fairnessWeight: weight };
}
