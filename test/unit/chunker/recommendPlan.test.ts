import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { documentProfile, type DocumentProfile } from '../../../chunker/documentProfile';
import { pageMarker } from '../../../chunker/pageMarkers';
import { recommendPlan } from '../../../chunker/recommendPlan';
import type { SourceFileType } from '../../../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { parseToMarkdown } from '../../../parsers/parseToMarkdown';
import { debianDocPath } from '../../../testkit/fixtures/debianDocs';
import { openpyxlInventory } from '../../../testkit/fixtures/openpyxlXlsx';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-recommend-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function recommendFile(file: string, type: SourceFileType) {
  const markdown = await parseToMarkdown(file, type, DEFAULT_PARSE_LIMITS);
  return { profile: documentProfile(markdown, type), plan: recommendPlan(documentProfile(markdown, type)) };
}

describe('recommendPlan on real documents nobody here wrote', () => {
  it("Debian's FAQ gets qa", async () => {
    const { plan, profile } = await recommendFile(
      debianDocPath('debian-faq', 'usr/share/doc/debian/FAQ/pkg-basics.en.html'),
      'html',
    );
    expect(profile.questions).toBeGreaterThanOrEqual(10);
    expect(plan.strategy).toBe('qa');
    expect(plan.reason).toMatch(/^FAQ-shaped: \d+ questions among \d+ headings$/);
  }, 120_000);

  it('an XLSX written by openpyxl gets table', async () => {
    const file = openpyxlInventory(path.join(dir, 'inventory.xlsx'), 80);
    const { plan, profile } = await recommendFile(file, 'xlsx');
    expect(profile.tableRows).toBeGreaterThan(80);
    expect(plan.strategy).toBe('table');
    expect(plan.parameters).toEqual({ childTokens: 200, overlapTokens: 0, parentTokens: 2000 });
  }, 120_000);

  it("Debian's New Maintainers' Guide (a long PDF manual) gets general", async () => {
    const { plan, profile } = await recommendFile(
      debianDocPath('maint-guide', 'usr/share/doc/maint-guide/maint-guide.en.pdf'),
      'pdf',
    );
    expect(profile.pages).toBeGreaterThan(20);
    expect(profile.headingDepth).toBeGreaterThanOrEqual(2);
    expect(plan.strategy).toBe('general');
    expect(plan.reason).toContain('sections as parents');
  }, 120_000);
});

const profile = (overrides: Partial<DocumentProfile>): DocumentProfile => ({
  fileType: 'md',
  chars: 20_000,
  headings: 10,
  headingDepth: 2,
  questions: 0,
  tableShare: 0,
  tableRows: 0,
  pages: 0,
  ...overrides,
});

describe('recommendPlan rules', () => {
  it.each([
    ['a CSV', 'table', profile({ fileType: 'csv', tableShare: 1, tableRows: 5 })],
    ['a table-heavy HTML page', 'table', profile({ fileType: 'html', tableShare: 0.8, tableRows: 300 })],
    ['one small table in a manual', 'general', profile({ tableShare: 0.8, tableRows: 6 })],
    ['Q: lines without headings', 'qa', profile({ headings: 0, questions: 5 })],
    ['a manual with two question headings', 'general', profile({ headings: 40, questions: 2 })],
    ['a slide deck', 'page', profile({ fileType: 'pptx' })],
    ['a PDF of sparse form pages', 'page', profile({ fileType: 'pdf', pages: 6, chars: 4000 })],
    ['a dense PDF', 'general', profile({ fileType: 'pdf', pages: 6, chars: 30_000 })],
    ['a short note', 'one', profile({ chars: 900, headings: 1, headingDepth: 1 })],
    ['a short note with subsections', 'general', profile({ chars: 900, headings: 3, headingDepth: 2 })],
  ])('%s → %s', (_name, strategy, given) => {
    const plan = recommendPlan(given);
    expect(plan.strategy).toBe(strategy);
    expect(plan.reason).not.toMatch(/\n/);
    expect(plan.reason.length).toBeGreaterThan(10);
  });

  it('profiles markdown in one pass: questions, tables, pages', () => {
    const markdown = [
      pageMarker(1),
      '# Help',
      '## How do I log in?',
      'With your mail address.',
      'Q: Can I share an account?',
      'No.',
      pageMarker(2),
      '| a | b |\n| --- | --- |\n| 1 | 2 |',
    ].join('\n\n');
    expect(documentProfile(markdown, 'pdf')).toEqual({
      fileType: 'pdf',
      chars: markdown.length,
      headings: 2,
      headingDepth: 2,
      questions: 2,
      tableShare: expect.any(Number),
      tableRows: 3,
      pages: 2,
    });
  });
});
