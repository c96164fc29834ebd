import { encode } from 'iconv-lite';
import { SluiceError } from '../../../contracts/sluiceError';
import { decodeDetected, detectEncoding } from '../../../parsers/textEncoding';
import { textToMarkdown } from '../../../parsers/textToMarkdown';

const CHINESE =
  '用户上传文档之后，系统会检测文件的真实类型，把内容转换为Markdown，然后切分成父块和子块，再写入向量索引和关键词索引。'.repeat(
    3,
  );

describe('text encoding detection', () => {
  it.each([
    ['UTF-8', Buffer.from(CHINESE, 'utf8'), 'utf-8'],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(CHINESE)]), 'utf-8'],
    ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CHINESE, 'utf16le')]), 'utf-16le'],
    [
      'UTF-16BE with BOM',
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(CHINESE, 'utf16le').swap16()]),
      'utf-16be',
    ],
    ['UTF-16LE without BOM', Buffer.from(CHINESE, 'utf16le'), 'utf-16le'],
    [
      'UTF-16BE without BOM (ASCII)',
      Buffer.from('Plain ASCII written by a Windows tool.', 'utf16le').swap16(),
      'utf-16be',
    ],
    ['GB18030', encode(CHINESE, 'gb18030'), 'gb18030'],
    ['Big5', encode('使用者上傳文件之後，系統會檢測檔案的真實類型，然後切分成區塊。'.repeat(3), 'big5'), 'big5'],
  ])('recognises %s', (_label, bytes, expected) => {
    expect(detectEncoding(bytes)).toBe(expected);
  });

  it('decodes each of them back to the same text', () => {
    for (const bytes of [
      encode(CHINESE, 'gb18030'),
      Buffer.from(CHINESE, 'utf16le'),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(CHINESE, 'utf16le').swap16()]),
    ]) {
      expect(decodeDetected(bytes)).toBe(CHINESE);
    }
  });

  it('turns GB18030 plain text into markdown paragraphs', () => {
    expect(textToMarkdown(encode('第一段：上传文档。\r\n\r\n\r\n# 第二段\r\n', 'gb18030'))).toBe(
      '第一段：上传文档。\n\n\\# 第二段',
    );
  });

  it('tolerates a stray byte deep in a large text but refuses mostly undecodable text', () => {
    const large = Buffer.concat([
      Buffer.from('a'.repeat(20_000)),
      Buffer.from([0xff]),
      Buffer.from('b'.repeat(20_000)),
    ]);
    expect(decodeDetected(large)).toContain('\ufffd');
    const broken = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(Array.from({ length: 400 }, (_, i) => (i % 4 === 1 ? 0xd8 : 0x41))),
    ]);
    expect(() => decodeDetected(broken)).toThrow(SluiceError);
    expect(() => decodeDetected(broken)).toThrow(/not valid utf-16le/);
  });
});
