/**
 * A key a caller names (a run's source object), checked by its shape before any store sees it,
 * whichever store is configured. A local directory resolves `.`, `..` and `//` as paths, S3 and
 * the proxies in front of it may decode `%2e` or turn `\` into `/`: a key with any of them could
 * name something other than what it reads as, such as sluice's own `documents/` objects. Such a
 * key is refused outright rather than normalised: the check never has to guess what a store does.
 */

// C0 and C1 controls and DEL: no real object key has them, and some stores cut keys at NUL.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Percent-encoded `.`, `/` and `\`: decoded by some servers and proxies into the segments refused below.
const ENCODED_SEPARATOR_OR_DOT = /%(2e|2f|5c)/i;

/** Why the key is refused, or null when its shape is acceptable. */
export function callerKeyProblem(key: string, ownPrefix: string): string | null {
  if (key.length === 0) return 'the key is empty';
  if (CONTROL.test(key)) return 'the key has control characters';
  if (key.includes('\\')) return 'the key has a backslash';
  if (ENCODED_SEPARATOR_OR_DOT.test(key)) return 'the key has a percent-encoded dot or separator';
  const segments = key.split('/');
  if (segments.includes('')) return 'the key has a leading, trailing or doubled slash';
  if (segments.some((s) => s === '.' || s === '..')) return 'the key has a . or .. segment';
  // Case-insensitively: a store on a case-insensitive file system reads Documents/ as documents/.
  const own = ownPrefix.replace(/\/$/, '').toLowerCase();
  if (segments[0]?.toLowerCase() === own) return `the key is under ${ownPrefix} (sluice's own objects)`;
  return null;
}
