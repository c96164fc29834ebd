/**
 * The arithmetic of the Postgres dense search (stores/postgresDenseTable.ts) over what Postgres
 * keeps of each vector: its signs, its quantized bytes and its floats as array_send writes them.
 */

/** The query's signs, as Postgres's sluice_sign_bits writes a row's (a positive value is 1). */
export function signBits(vector: number[]): string {
  let bits = '';
  for (const value of vector) bits += value > 0 ? '1' : '0';
  return bits;
}

export function norm(vector: number[]): number {
  let squares = 0;
  for (const value of vector) squares += value * value;
  return Math.sqrt(squares);
}

/** array_send's binary layout of a one-dimensional real[]: a 20-byte header, then (length, value) per element. */
const ARRAY_HEADER_BYTES = 20;
const ELEMENT_BYTES = 8;

/** The cosine of the query (of norm `queryNorm`) with a vector in array_send's layout; null for a zero vector. */
export function cosineOfSent(sent: Buffer, query: number[], queryNorm: number): number | null {
  let dot = 0;
  let squares = 0;
  for (let i = 0; i < query.length; i += 1) {
    const value = sent.readFloatBE(ARRAY_HEADER_BYTES + i * ELEMENT_BYTES + 4);
    dot += value * (query[i] as number);
    squares += value * value;
  }
  return squares === 0 || queryNorm === 0 ? null : dot / (Math.sqrt(squares) * queryNorm);
}

/** The byte sluice_quantized writes for 0; a byte b stands for b - 128 (the row's scale cancels in a cosine). */
const QUANTIZED_ZERO = 128;

/** The cosine of the query with a vector quantized by sluice_quantized; null for a zero vector. */
export function cosineOfQuantized(bytes: Buffer, query: number[], queryNorm: number): number | null {
  let dot = 0;
  let squares = 0;
  for (let i = 0; i < query.length; i += 1) {
    const value = (bytes[i] ?? QUANTIZED_ZERO) - QUANTIZED_ZERO;
    dot += value * (query[i] as number);
    squares += value * value;
  }
  return squares === 0 || queryNorm === 0 ? null : dot / (Math.sqrt(squares) * queryNorm);
}

export type Scored = { chunkId: string; score: number | null };

/** Best first, as ORDER BY score DESC NULLS LAST, chunk_id would: a zero vector (no cosine) last. */
export function bestFirst(a: Scored, b: Scored): number {
  return (
    (b.score ?? -Infinity) - (a.score ?? -Infinity) || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0)
  );
}
