/** Text encodings we can read: UTF-8 (with or without BOM) and UTF-16 announced by a BOM. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export function sniffEncoding(bytes: Uint8Array): TextEncoding {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/**
 * Decodes a whole file and drops its BOM (TextDecoder strips the one matching its encoding).
 * Not fatal on malformed sequences: the type detector already checked the head, and one stray
 * byte deep inside a large text should cost a U+FFFD, not the whole document.
 */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder(sniffEncoding(bytes)).decode(bytes);
}
