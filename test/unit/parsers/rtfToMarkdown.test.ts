import { detectFileType } from '../../../parsers/detectFileType';
import { rtfToMarkdown } from '../../../parsers/rtfToMarkdown';
import { pandocOffice } from '../../../testkit/fixtures/pandocOffice';

const rtf = (body: string) =>
  Buffer.from(`{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Helvetica;}}${body}}`, 'latin1');

describe('RTF', () => {
  it('reads a real RTF (pandoc, -s): headings, emphasis, non-Latin characters, nested lists and a table', () => {
    const file = pandocOffice(
      '# Install\n\nRun the *installer*: café 中文.\n\n## Partitions\n\n- root\n    - boot\n- swap\n\n| package | version |\n|---|---|\n| apt | 2.6 |\n',
      'rtf',
      {},
      ['-s'],
    );
    expect(detectFileType(file.subarray(0, 8192), 'notes.bin')).toBe('rtf');
    expect(rtfToMarkdown(file)).toBe(
      '# Install\n\nRun the installer: café 中文.\n\n## Partitions\n\n- root\n  - boot\n- swap\n\n| package | version |\n| --- | --- |\n| apt | 2.6 |',
    );
  });

  it("decodes \\'hh in the document's code page and \\u with its stand-ins, and leaves destinations out", () => {
    const body =
      '{\\info{\\title Secret title}}{\\*\\generator Writer;}{\\colortbl;\\red0;}' +
      "\\pard Gr\\'fc\\'dfe \\uc2\\u8364??\\uc1 and \\u-3913? \\{braces\\}\\~ok{\\pict 89504e47}\\par" +
      '{\\header Page header\\par}\\pard Second\\line line\\par';
    expect(rtfToMarkdown(rtf(body))).toBe('Grüße €and \uf0b7 {braces} ok\n\nSecond line');
  });

  it('keeps a dash that is no bullet, and refuses groups nested past the bound as CORRUPT_DOCUMENT', () => {
    expect(rtfToMarkdown(rtf('\\pard -5 degrees\\par'))).toBe('-5 degrees');
    expect(() => rtfToMarkdown(rtf(`${'{'.repeat(5000)}x${'}'.repeat(5000)}`))).toThrow(/nested deeper than 1000/);
    expect(() => rtfToMarkdown(Buffer.from('not rtf'))).toThrow(/not an RTF document/);
  });
});
