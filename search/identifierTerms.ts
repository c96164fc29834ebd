import { tokenize } from '../tokenizer/tokenize';

/** Punctuation that only appears inside a word when it is code: options, paths, variables, files. */
const CODE_PUNCTUATION = /[-_./=$@:\\]/;
const HAS_LETTER = /\p{L}/u;
const HAS_DIGIT = /\p{N}/u;
/** Written in capitals (CMD, DEBUILD_LINTIAN_OPTS) or with a capital inside (setValue). */
const CAPITALISED_CODE = /^[A-Z0-9_]{2,}$|^[a-z]+[A-Z]/;

/** Whitespace-separated pieces are bounded, so the whole scan is linear in the query. */
const MAX_PIECE = 200;

function looksLikeCode(piece: string): boolean {
  if (piece.length > MAX_PIECE || !HAS_LETTER.test(piece)) return false;
  const inner = piece.replace(/^[^\p{L}\p{N}$-]+|[^\p{L}\p{N}]+$/gu, '');
  return (
    CODE_PUNCTUATION.test(inner) || (HAS_DIGIT.test(inner) && HAS_LETTER.test(inner)) || CAPITALISED_CODE.test(inner)
  );
}

/**
 * The query's identifiers as index terms: the tokens of every piece written like code
 * (`--fsys-tarfile`, `$SOURCE_DATE_EPOCH`, `rescue/enable=true`, `lowmem=2`, `CMD`). A keyword
 * query on these alone ranks the passages that name the identifier above those that only share
 * the question's ordinary words (search/hybridSearch.ts fuses it as the `identifier` list).
 */
export function identifierTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const piece of query.split(/\s+/)) {
    if (!looksLikeCode(piece)) continue;
    for (const token of tokenize(piece)) terms.add(token);
  }
  return [...terms];
}

/** The query's words that are not written like code, in order; empty for a query of identifiers only. */
export function wordsBesideIdentifiers(query: string): string {
  return query
    .split(/\s+/)
    .filter((piece) => piece.length > 0 && !looksLikeCode(piece))
    .join(' ');
}

/** A query of identifiers only (`start-stop-daemon`, `/var/lib/dpkg/info`): no word beside them. */
export function isIdentifierQuery(query: string): boolean {
  return query.trim().length > 0 && wordsBesideIdentifiers(query).length === 0;
}
