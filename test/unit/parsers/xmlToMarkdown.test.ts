import { chunkMarkdown } from '../../../chunker/chunkMarkdown';
import { detectFileType } from '../../../parsers/detectFileType';
import { xmlToMarkdown } from '../../../parsers/xmlToMarkdown';

const CONFIG = `<?xml version="1.0"?>
<config version="2">
  <server name="main"><host>localhost</host><port>8080</port>
    <tls><cert>/etc/cert.pem</cert></tls>
  </server>
  <docs><para>Run the <command>installer</command> and <emphasis>choose</emphasis> a disk.</para><para>Second &amp; last.</para></docs>
  <empty/>
</config>`;

describe('XML', () => {
  it('keeps the structure: containers as sections by element (and name), leaves as name: value, mixed content as paragraphs', () => {
    expect(xmlToMarkdown(CONFIG)).toBe(
      [
        '# config',
        '## server main',
        'host: localhost\nport: 8080',
        '### tls',
        'cert: /etc/cert.pem',
        '## docs',
        'Run the installer and choose a disk.',
        'para: Second & last.',
      ].join('\n\n'),
    );
  });

  it('gives each chunk its element path as section path', () => {
    const chunks = chunkMarkdown('doc', xmlToMarkdown(CONFIG), { maxTokens: 200, overlapTokens: 0 });
    expect(chunks.find((c) => c.kind === 'child' && c.text.includes('cert.pem'))?.sectionPath).toEqual([
      'config',
      'server main',
      'tls',
    ]);
  });

  it('is detected by its declaration or extension, XHTML staying HTML', () => {
    expect(detectFileType(Buffer.from('<?xml version="1.0"?><feed/>'), 'feed.bin')).toBe('xml');
    expect(detectFileType(Buffer.from('<feed/>'), 'feed.xml')).toBe('xml');
    expect(
      detectFileType(
        Buffer.from('<?xml version="1.0"?>\n<!DOCTYPE html>\n<html><body><p>x</p></body></html>'),
        'page.xhtml',
      ),
    ).toBe('html');
  });

  it('refuses nesting past 256 elements as CORRUPT_DOCUMENT, and reads deep inline text once', () => {
    expect(() => xmlToMarkdown(`${'<a>'.repeat(300)}x${'</a>'.repeat(300)}`)).toThrow(/nested deeper than 256/);
    const inline = `<p>start ${'<b>'.repeat(200)}deep${'</b>'.repeat(200)} end</p>`;
    expect(xmlToMarkdown(inline)).toBe('start deep end');
  });
});
