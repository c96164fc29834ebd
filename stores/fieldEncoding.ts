import type { DocumentFieldValues } from '../contracts/documentFields';
import type { FilterScalar, RangeBound } from '../contracts/searchFilter';

/**
 * A document's fields as one list of keyword terms, `<field>\u0001<type><value>`, for an index that
 * keeps them on every chunk entry: one keyword field, whatever keys tenants choose, so tenants'
 * metadata cannot grow the index mapping. The type letter keeps a number apart from the string of
 * its digits; numbers are written so that their byte order is their numeric order, so a range is
 * a range of terms.
 */
const SEPARATOR = '\u0001';

/** 16 hex digits whose byte order is the numbers' order (IEEE 754 bits, sign-flipped). */
export function sortableNumber(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value === 0 ? 0 : value);
  let high = view.getUint32(0);
  let low = view.getUint32(4);
  if (high & 0x80000000) {
    high = ~high >>> 0;
    low = ~low >>> 0;
  } else {
    high = (high | 0x80000000) >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

function typeLetter(value: FilterScalar | RangeBound): 'n' | 'b' | 's' {
  return typeof value === 'number' ? 'n' : typeof value === 'boolean' ? 'b' : 's';
}

export function encodedTerm(field: string, value: FilterScalar): string {
  const body = typeof value === 'number' ? sortableNumber(value) : String(value);
  return `${field}${SEPARATOR}${typeLetter(value)}${body}`;
}

/** Every term of a field starts with this. */
export function fieldPrefix(field: string): string {
  return `${field}${SEPARATOR}`;
}

/** The bounds of a range as terms: a bound left open ends at its type's first or last term. */
export function encodedRange(
  field: string,
  range: { gt?: RangeBound; gte?: RangeBound; lt?: RangeBound; lte?: RangeBound },
): { gt?: string; gte?: string; lt?: string; lte?: string } {
  const first = Object.values(range)[0] as RangeBound;
  const letter = typeLetter(first);
  const encode = (b: RangeBound) => encodedTerm(field, b);
  const out: { gt?: string; gte?: string; lt?: string; lte?: string } = {};
  if (range.gt !== undefined) out.gt = encode(range.gt);
  if (range.gte !== undefined) out.gte = encode(range.gte);
  if (range.lt !== undefined) out.lt = encode(range.lt);
  if (range.lte !== undefined) out.lte = encode(range.lte);
  if (out.gt === undefined && out.gte === undefined) out.gte = `${fieldPrefix(field)}${letter}`;
  // The letter after the type's: every term of the type sorts below it.
  if (out.lt === undefined && out.lte === undefined)
    out.lt = `${fieldPrefix(field)}${String.fromCharCode(letter.charCodeAt(0) + 1)}`;
  return out;
}

/** Every term of a document's fields: one per metadata value (per item of a list) and per system field set. */
export function encodedFields(values: DocumentFieldValues): string[] {
  const terms: string[] = [];
  for (const [key, value] of Object.entries(values.metadata)) {
    // An empty list still has its key: a term of its own type, which no eq or range ever matches.
    if (Array.isArray(value) && value.length === 0) terms.push(`${fieldPrefix(`meta.${key}`)}l`);
    for (const item of Array.isArray(value) ? value : [value]) terms.push(encodedTerm(`meta.${key}`, item));
  }
  for (const [field, value] of Object.entries(values.system)) {
    if (value !== null) terms.push(encodedTerm(field, value));
  }
  return terms;
}
