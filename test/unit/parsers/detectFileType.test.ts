import { SluiceError } from '../../../contracts/sluiceError';
import { detectFileType } from '../../../parsers/detectFileType';
import { emptyCommentsThenText } from '../../../bench/adversarialInputs';
import { inTime } from '../adversarial/inTime';

function thrownBy(action: () => unknown): SluiceError {
  try {
    action();
  } catch (error) {
    if (error instanceof SluiceError) return error;
    throw error;
  }
  throw new Error('expected a SluiceError, nothing was thrown');
}

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('detectFileType', () => {
  it('detects PDF and Office bytes whatever the file is called', () => {
    expect(detectFileType(utf8('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj'), 'notes.txt')).toBe('pdf');
    const zipHead = (firstEntry: string): Buffer =>
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), utf8(firstEntry)]);
    expect(detectFileType(zipHead('word/document.xml'), 'upload')).toBe('docx');
    expect(detectFileType(zipHead('xl/workbook.xml'), 'upload.bin')).toBe('xlsx');
    expect(detectFileType(zipHead('[Content_Types].xml'), 'deck.pptx')).toBe('pptx');
    expect(detectFileType(utf8('a,b\n1,2\n'), 'table.csv')).toBe('csv');
  });

  it('rejects text that claims a binary format by its extension', () => {
    const error = thrownBy(() => detectFileType(utf8('just some words'), 'report.docx'));
    expect(error.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(error.message).toContain('.docx');
  });

  it('names a password-protected Office file (an OLE2 container) as ENCRYPTED_DOCUMENT', () => {
    const ole2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(thrownBy(() => detectFileType(ole2, 'salary.xlsx')).code).toBe('ENCRYPTED_DOCUMENT');
    expect(thrownBy(() => detectFileType(ole2, 'legacy.doc')).code).toBe('LEGACY_OFFICE_FORMAT');
    expect(thrownBy(() => detectFileType(ole2, 'legacy.doc')).message).toMatch(
      /Word 97–2003 document \(DOC\); save it as DOCX/,
    );
    const workbook = Buffer.concat([ole2, Buffer.alloc(600), Buffer.from('Workbook\0', 'utf16le')]);
    expect(thrownBy(() => detectFileType(workbook, 'upload.bin')).message).toMatch(/Excel 97–2003 workbook \(XLS\)/);
  });

  it('reports UTF-16 whose bytes break their byte-order mark as INVALID_TEXT_ENCODING', () => {
    // A high surrogate followed by a letter instead of a low surrogate.
    const broken = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('ok', 'utf16le'),
      Buffer.from([0x00, 0xd8, 0x41, 0x00]),
    ]);
    expect(thrownBy(() => detectFileType(broken, 'notes.txt')).code).toBe('INVALID_TEXT_ENCODING');
  });

  it.each([
    [
      'a ZIP that is no Office document',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
      'report.md',
      'ZIP',
    ],
    ['GIF', utf8('GIF89a\u0001\u0000'), 'anim.txt', 'GIF'],
    ['gzip', Buffer.from([0x1f, 0x8b, 0x08, 0x00]), 'data.txt', 'gzip'],
    ['ELF', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01]), 'tool', 'ELF'],
  ])('rejects %s content whatever the extension', (_kind, head, fileName, label) => {
    const error = thrownBy(() => detectFileType(head, fileName));
    expect(error.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(error.message).toContain(label);
  });

  it.each([
    ['png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), 'image.html'],
    ['jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), 'photo.txt'],
    ['tiff', Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00]), 'scan'],
    ['tiff', Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x08]), 'scan.pdf'],
    ['webp', Buffer.concat([utf8('RIFF'), Buffer.from([0x24, 0, 0, 0]), utf8('WEBPVP8 ')]), 'shot.png'],
  ])('detects %s images by their bytes, whatever the extension, for OCR', (type, head, fileName) => {
    expect(detectFileType(head, fileName)).toBe(type);
  });

  it('still refuses RIFF media that is not WebP', () => {
    const wav = Buffer.concat([utf8('RIFF'), Buffer.from([0x24, 0, 0, 0]), utf8('WAVEfmt ')]);
    expect(thrownBy(() => detectFileType(wav, 'voice.webp')).code).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('detects an HTML document named .txt as html', () => {
    expect(detectFileType(utf8('\ufeff  \n<!DOCTYPE html>\n<html><body>x</body></html>'), 'page.txt')).toBe('html');
    expect(detectFileType(utf8('<!-- saved page -->\n<html lang="en">'), 'page.txt')).toBe('html');
  });

  it('skips an XML declaration, comments and whitespace in any order before the first tag', () => {
    expect(detectFileType(utf8('<?xml version="1.0"?>\n<!-- a -->\n<!--b--><html xmlns="x">'), 'page')).toBe('html');
    expect(detectFileType(utf8('<!-- a -- b --><BODY>'), 'page')).toBe('html');
    expect(detectFileType(utf8('<!doctype\tHTML>'), 'page')).toBe('html');
    expect(detectFileType(utf8('<head/>'), 'page')).toBe('html');
    expect(detectFileType(utf8('<headline>'), 'page')).toBe('txt');
    expect(detectFileType(utf8('<!doctype htmlx>'), 'page')).toBe('txt');
    expect(detectFileType(utf8('<!-- never closed <html>'), 'page')).toBe('txt');
    // Not an HTML page: an XML declaration that never closes starts XML, read as such.
    expect(detectFileType(utf8('<?xml never closed <html>'), 'page')).toBe('xml');
    expect(detectFileType(utf8('<html'), 'page')).toBe('txt');
  });

  it('classifies a run of empty comments followed by text as txt in linear time (no backtracking)', async () => {
    // The old pattern backtracked 2^n over `<!---->` n times: 30 comments took more than a minute.
    expect(await inTime(() => detectFileType(emptyCommentsThenText(40), 'notes'))).toBe('txt');
    expect(detectFileType(emptyCommentsThenText(100_000), 'notes')).toBe('txt');
    expect(
      detectFileType(Buffer.concat([emptyCommentsThenText(100_000).subarray(0, -1), utf8('<html>')]), 'page'),
    ).toBe('html');
  });

  it('keeps a .txt that merely mentions a tag as txt', () => {
    expect(detectFileType(utf8('Use the <html> element as the root.\n'), 'notes.txt')).toBe('txt');
  });

  it('trusts text extensions for text content', () => {
    expect(detectFileType(utf8('<p>fragment</p>'), 'fragment.HTM')).toBe('html');
    expect(detectFileType(utf8('<html><body>inline</body></html>'), 'readme.md')).toBe('md');
    expect(detectFileType(utf8('# Title\n'), 'notes.markdown')).toBe('md');
    expect(detectFileType(utf8('plain words'), 'notes.txt')).toBe('txt');
  });

  it('treats valid text with an unknown extension as txt, or html when it is an HTML document', () => {
    expect(detectFileType(utf8('key = value\n中文也可以\n'), 'settings.conf')).toBe('txt');
    expect(detectFileType(utf8('<!doctype html><title>x</title>'), 'download')).toBe('html');
  });

  it('accepts UTF-16 text announced by a BOM', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello 世界', 'utf16le')]);
    expect(detectFileType(le, 'greeting.txt')).toBe('txt');
    const be = Buffer.from(le.subarray(2)).swap16();
    expect(detectFileType(Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'greeting.txt')).toBe('txt');
  });

  it('tolerates a multi-byte character cut off at the end of the head', () => {
    const head = utf8('文档处理').subarray(0, 10);
    expect(detectFileType(head, 'guide.txt')).toBe('txt');
  });

  it('rejects binary-looking content: NUL bytes or control characters', () => {
    expect(thrownBy(() => detectFileType(Buffer.from([0x41, 0x00, 0x42, 0x43]), 'a.txt')).code).toBe(
      'UNSUPPORTED_FILE_TYPE',
    );
    expect(thrownBy(() => detectFileType(Buffer.from([0x01, 0x02, 0x03, 0x04, 0x41]), 'c.bin')).code).toBe(
      'UNSUPPORTED_FILE_TYPE',
    );
  });

  it('reports an empty head as EMPTY_DOCUMENT', () => {
    const error = thrownBy(() => detectFileType(Buffer.alloc(0), 'empty.txt'));
    expect(error.code).toBe('EMPTY_DOCUMENT');
    expect(error.permanent).toBe(true);
  });
});
