/**
 * 32-bit FNV-1a over the UTF-8 bytes of a string, as an unsigned integer. Chosen because it is
 * tiny, fast on short strings (terms, trigrams) and identical on every platform and Node version:
 * stored sparse indices and hashed embeddings must never change meaning.
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
