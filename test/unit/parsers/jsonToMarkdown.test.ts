import { chunkMarkdown } from '../../../chunker/chunkMarkdown';
import { detectFileType } from '../../../parsers/detectFileType';
import { jsonToMarkdown } from '../../../parsers/jsonToMarkdown';

const CONFIG = {
  name: 'sluice',
  version: 3,
  enabled: true,
  server: { host: 'localhost', port: 8080, tls: { cert: '/etc/cert.pem' } },
  tags: ['search', 'ingest'],
  users: [
    { id: 1, name: 'alice', admin: true },
    { id: 2, name: 'bob', email: 'bob@example.org' },
  ],
  steps: [{ run: 'npm ci', env: { CI: 'true' } }, 'echo done'],
};

describe('JSON', () => {
  it('keeps the structure: scalars as key: value, nested values as sections by key, lists, record tables', () => {
    expect(jsonToMarkdown(JSON.stringify(CONFIG))).toBe(
      [
        'name: sluice\nversion: 3\nenabled: true',
        '# server',
        'host: localhost\nport: 8080',
        '## tls',
        'cert: /etc/cert.pem',
        '# tags',
        '- search\n- ingest',
        '# users',
        '| id | name | admin | email |\n| --- | --- | --- | --- |\n| 1 | alice | true |  |\n| 2 | bob |  | bob@example.org |',
        '# steps',
        '## 1',
        'run: npm ci',
        '### env',
        'CI: true',
        '## 2',
        'echo done',
      ].join('\n\n'),
    );
  });

  it('gives each chunk its key path as section path', () => {
    const chunks = chunkMarkdown('doc', jsonToMarkdown(JSON.stringify(CONFIG)), { maxTokens: 200, overlapTokens: 0 });
    const child = chunks.find((c) => c.kind === 'child' && c.text.includes('/etc/cert.pem'));
    expect(child?.sectionPath).toEqual(['server', 'tls']);
  });

  it('is detected by its extension or by an object start, and refuses what is not JSON', () => {
    expect(detectFileType(Buffer.from('{"a": 1}'), 'data.bin')).toBe('json');
    expect(detectFileType(Buffer.from('[1, 2]'), 'data.json')).toBe('json');
    expect(detectFileType(Buffer.from('[section]\nkey=value\n'), 'settings.ini')).toBe('txt');
    expect(() => jsonToMarkdown('{"a": ')).toThrow(/not readable JSON/);
    expect(() => jsonToMarkdown(`${'['.repeat(200_000)}${']'.repeat(200_000)}`)).toThrow(
      /not readable JSON|nested deeper than 512/,
    );
  });

  it('writes values past six levels as compact JSON', () => {
    let deep: unknown = { leaf: 'x' };
    for (let i = 0; i < 8; i++) deep = { [`k${i}`]: deep };
    const markdown = jsonToMarkdown(JSON.stringify(deep));
    expect(markdown).toContain('###### k2');
    expect(markdown).toContain('```json\n{"k1":{"k0":{"leaf":"x"}}}\n```');
  });
});
