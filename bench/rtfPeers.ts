import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../config/config';
import { htmlToMarkdown } from '../parsers/htmlToMarkdown';
import { rtfToMarkdown } from '../parsers/rtfToMarkdown';
import { pandocOffice } from '../testkit/fixtures/pandocOffice';
import { writeBenchResult } from './benchResults';

/**
 * `npm run bench:rtf-peers`: sluice's RTF reader (parsers/rtfToMarkdown.ts) beside the npm RTF
 * readers (scripts/rtf-peers.sh installs them apart): @iarna/rtf-to-html, whose HTML goes through
 * sluice's htmlToMarkdown, and rtf-stream-parser's text de-encapsulation. On a pandoc RTF (what is
 * kept of headings, lists, a table and non-Latin characters), 50,000 paragraphs (6 MB) and 900
 * nested groups: time and output. Writes bench-results/rtf-peers.json.
 */
const peers = createRequire(path.join(loadConfig().dataDir, 'bench-peers', 'rtf', 'package.json'));
const rtfToHtml = peers('@iarna/rtf-to-html') as {
  fromString(rtf: string, done: (error: Error | null, html: string) => void): void;
};
const { Tokenize, DeEncapsulate } = peers('rtf-stream-parser') as {
  Tokenize: new () => NodeJS.ReadWriteStream;
  DeEncapsulate: new (mode: string) => NodeJS.ReadWriteStream;
};

const viaHtml = (rtf: Buffer) =>
  new Promise<string>((resolve, reject) =>
    rtfToHtml.fromString(rtf.toString('latin1'), (error, html) =>
      error ? reject(error) : resolve(htmlToMarkdown(html)),
    ),
  );

async function streamText(rtf: Buffer): Promise<string> {
  const parts: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const out = Readable.from([rtf]).pipe(new Tokenize()).pipe(new DeEncapsulate('text'));
    out.on('data', (chunk: Buffer | string) => parts.push(String(chunk)));
    out.on('end', resolve);
    out.on('error', reject);
  });
  return parts.join('');
}

async function timed(run: () => Promise<string> | string): Promise<{ ms: number; output: string }> {
  const started = performance.now();
  try {
    const output = await run();
    return { ms: Math.round(performance.now() - started), output };
  } catch (error) {
    return { ms: Math.round(performance.now() - started), output: `ERROR: ${(error as Error).message.slice(0, 100)}` };
  }
}

async function main(): Promise<void> {
  const paragraph = (i: number) =>
    `{\\pard \\ql \\f0 \\sa180 Paragraph ${i}: run the {\\i installer} and choose caf\\u233? \\u20013?.\\par}\n`;
  const inputs: Record<string, Buffer> = {
    pandoc: pandocOffice(
      '# Install\n\nRun the *installer*: café 中文.\n\n## Partitions\n\n- root\n    - boot\n- swap\n\n| package | version |\n|---|---|\n| apt | 2.6 |\n',
      'rtf',
      {},
      ['-s'],
    ),
    paragraphs50k: Buffer.from(
      `{\\rtf1\\ansi{\\fonttbl{\\f0 Helvetica;}}${Array.from({ length: 50_000 }, (_, i) => paragraph(i)).join('')}}`,
      'latin1',
    ),
    nested900: Buffer.from(`{\\rtf1\\ansi${'{'.repeat(900)}\\pard deep\\par${'}'.repeat(900)}}`, 'latin1'),
  };
  const result: Record<string, unknown> = { bench: 'rtf-peers' };
  for (const [name, rtf] of Object.entries(inputs)) {
    const sides = {
      sluice: await timed(() => rtfToMarkdown(rtf)),
      iarnaRtfToHtml: await timed(() => viaHtml(rtf)),
      rtfStreamParserText: await timed(() => streamText(rtf)),
    };
    result[name] = Object.fromEntries(
      Object.entries(sides).map(([side, r]) => [
        side,
        { ms: r.ms, output: name === 'pandoc' ? r.output : r.output.slice(0, 120) },
      ]),
    );
    console.log(
      name,
      Object.entries(sides)
        .map(([side, r]) => `${side} ${r.ms} ms`)
        .join(', '),
    );
  }
  writeBenchResult('rtf-peers.json', result);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
