import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SluiceError } from '../../../contracts/sluiceError';
import { parseToMarkdown } from '../../../parsers/parseToMarkdown';

const SAMPLES = path.join(__dirname, '../../../samples');

describe('parseToMarkdown', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sluice-parse-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function fileWith(name: string, content: string | Buffer): Promise<string> {
    const filePath = path.join(dir, name);
    await writeFile(filePath, content);
    return filePath;
  }

  it('passes markdown through untouched except for the BOM', async () => {
    const markdown = '# Title\r\n\r\n  text with *emphasis*  \r\n';
    const filePath = await fileWith('doc.md', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(markdown)]));
    await expect(parseToMarkdown(filePath, 'md')).resolves.toBe(markdown);
  });

  it('parses the Chinese HTML sample without its navigation and footer', async () => {
    const markdown = await parseToMarkdown(path.join(SAMPLES, '文档处理指南.html'), 'html');
    expect(markdown).toMatch(/^# 文档处理指南/);
    expect(markdown).toContain('## 向量检索');
    expect(markdown).toContain('| 最大词元数 | 400 | 单个子块允许的最大长度 |');
    expect(markdown).not.toContain('登录账户');
    expect(markdown).not.toContain('版权所有');
    expect(markdown).not.toContain('analyticsId');
  });

  it('parses the plain-text sample into paragraphs', async () => {
    const markdown = await parseToMarkdown(path.join(SAMPLES, 'vector-search-notes.txt'), 'txt');
    expect(markdown).toContain('harbor lantern');
    expect(markdown.split('\n\n').length).toBeGreaterThan(10);
  });

  it.each([
    ['blank.txt', '   \r\n\t\n', 'txt'],
    ['chrome-only.html', '<html><body><nav>Home</nav><footer>(c) 2024</footer></body></html>', 'html'],
    ['bom-only.md', Buffer.from([0xef, 0xbb, 0xbf, 0x0a]), 'md'],
  ] as const)('reports %s as EMPTY_DOCUMENT', async (name, content, type) => {
    const filePath = await fileWith(name, content);
    const failure = parseToMarkdown(filePath, type);
    await expect(failure).rejects.toBeInstanceOf(SluiceError);
    await expect(failure).rejects.toMatchObject({ code: 'EMPTY_DOCUMENT', permanent: true });
  });
});
