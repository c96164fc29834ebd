import { permanentError } from '../../contracts/sluiceError';

/** Directories one TIFF may hold, sub-IFDs included: a scan of 1,000 pages with a thumbnail each, and room. */
const MAX_IFDS = 4096;
/** Bytes of tag values all directories may declare together, as a multiple of the file's size. */
const VALUE_BYTES_PER_FILE_BYTE = 16;

/** Bytes of one value of each TIFF field type (TIFF 6.0 §2, plus IFD = 13); 0 for a type UTIF skips. */
function typeSize(type: number): number {
  if (type === 1 || type === 2 || type === 6 || type === 7) return 1;
  if (type === 3 || type === 8) return 2;
  if (type === 4 || type === 9 || type === 11 || type === 13) return 4;
  if (type === 5 || type === 10 || type === 12) return 8;
  return 0;
}

/** Tags whose values are offsets of further directories, which the decoder follows. */
const SUB_IFD_TAGS = new Set([330, 34665, 34853, 61440]);
/** DNG private data: the decoder reads an offset out of its bytes; a DNG raw is no document. */
const DNG_PRIVATE_DATA = 50740;

const corrupt = (why: string) => permanentError('CORRUPT_DOCUMENT', `the tiff image cannot be decoded: ${why}`);

/**
 * Walks a TIFF's directories before the decoder does, and refuses what would make the decoder loop
 * or allocate without bound: a directory reached twice (a 42-byte file whose directory named
 * itself looped UTIF for 18 s and grew the parse process by 1 GB), more than MAX_IFDS directories,
 * a tag whose values lie past the end of the file (UTIF reads `count` values whatever the file
 * holds), or more value bytes in all than VALUE_BYTES_PER_FILE_BYTE times the file. Each directory
 * is read once, so the walk is linear in the file.
 */
export function checkTiffStructure(bytes: Buffer): void {
  if (bytes.length < 8) throw corrupt('the header is cut short');
  const order = bytes.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') throw corrupt('the header names no byte order');
  const little = order === 'II';
  const u16 = (at: number) => (little ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at: number) => (little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  if (u16(2) !== 42) throw corrupt('not a classic TIFF (BigTIFF and others are not read)');

  const visited = new Set<number>();
  const pending: { offset: number; chained: boolean }[] = [{ offset: u32(4), chained: true }];
  let valueBytes = 0;
  const valueBudget = VALUE_BYTES_PER_FILE_BYTE * bytes.length;
  while (pending.length > 0) {
    const { offset, chained } = pending.pop()!;
    if (visited.has(offset)) throw corrupt(`directory ${offset} is reached twice (a loop)`);
    visited.add(offset);
    if (visited.size > MAX_IFDS) throw corrupt(`more than ${MAX_IFDS} directories`);
    if (offset + 2 > bytes.length) throw corrupt(`directory ${offset} lies past the end of the file`);
    const count = u16(offset);
    const end = offset + 2 + count * 12;
    if (end + (chained ? 4 : 0) > bytes.length) throw corrupt(`directory ${offset} runs past the end of the file`);
    for (let entry = offset + 2; entry < end; entry += 12) {
      const tag = u16(entry);
      const size = typeSize(u16(entry + 2)) * u32(entry + 4);
      if (size > 4 && u32(entry + 8) + size > bytes.length) throw corrupt(`tag ${tag} holds values past the end`);
      valueBytes += size;
      if (valueBytes > valueBudget) throw corrupt('its tags declare more values than the file could hold');
      if (tag === DNG_PRIVATE_DATA) throw corrupt('DNG private data is not read');
      if (SUB_IFD_TAGS.has(tag)) {
        const at = size > 4 ? u32(entry + 8) : entry + 8;
        for (let i = 0; i < u32(entry + 4) && typeSize(u16(entry + 2)) === 4; i++)
          pending.push({ offset: u32(at + 4 * i), chained: false });
      }
    }
    // Only the top-level chain is followed from a directory's "next" field, as the decoder does.
    if (chained) {
      const next = u32(end);
      if (next !== 0) pending.push({ offset: next, chained: true });
    }
  }
}
