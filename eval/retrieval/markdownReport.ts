import type { Scores } from './metrics';
import type { Breakdown } from './breakdown';

const f = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(3));
const cell = (s: Scores | undefined): string => (s ? `${f(s.recallAt5)} / ${f(s.mrrAt10)}` : '–');

export interface RankerResult {
  name: string;
  heldOut: Breakdown;
  tuning: Breakdown;
  tunedSets: Breakdown;
}

export interface LeverRow {
  name: string;
  what: string;
  chosen: string;
  heldOut: Breakdown;
  tuning: Breakdown;
  kept: boolean;
  why: string;
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

const count = (b: Breakdown, key: 'byLanguage' | 'bySet' | 'byStyle', k: string): string =>
  String(b[key][k]?.questions ?? 0);

/** The report's tables: held-out figures first, then the tuning families' two parts. */
export function markdownReport(results: RankerResult[], levers: LeverRow[], headline: string): string {
  const first = results[0];
  if (!first) return '';
  const sets = Object.keys(first.heldOut.bySet);
  const styles = Object.keys(first.heldOut.byStyle);
  const out: string[] = [];
  out.push(`### Held-out families: recall@5 / MRR@10 by question language\n`);
  out.push(
    table(
      [
        'retriever',
        `en (${count(first.heldOut, 'byLanguage', 'en')})`,
        `zh (${count(first.heldOut, 'byLanguage', 'zh')})`,
        'wrong-language top hits en / zh',
      ],
      results.map((r) => [
        r.name,
        cell(r.heldOut.byLanguage.en),
        cell(r.heldOut.byLanguage.zh),
        `${r.heldOut.wrongLanguageTop.en ?? 0} / ${r.heldOut.wrongLanguageTop.zh ?? 0}`,
      ]),
    ),
  );
  out.push(`\n### Held-out families: recall@5 / MRR@10 by corpus (${headline} and each single retriever)\n`);
  out.push(
    table(
      ['corpus (questions)', ...results.map((r) => r.name)],
      sets.map((s) => [`${s} (${count(first.heldOut, 'bySet', s)})`, ...results.map((r) => cell(r.heldOut.bySet[s]))]),
    ),
  );
  out.push(`\n### Held-out families: recall@5 / MRR@10 by question style\n`);
  out.push(
    table(
      ['style (questions)', ...results.map((r) => r.name)],
      styles.map((s) => [
        `${s} (${count(first.heldOut, 'byStyle', s)})`,
        ...results.map((r) => cell(r.heldOut.byStyle[s])),
      ]),
    ),
  );
  out.push(
    `\n### Tuning families: the sets added after the first tuning, and the sets tuned on then (recall@5 / MRR@10)\n`,
  );
  out.push(
    table(
      ['retriever', 'added sets en', 'added sets zh', 'tuned-on sets en', 'tuned-on sets zh'],
      results.map((r) => [
        r.name,
        cell(r.tuning.byLanguage.en),
        cell(r.tuning.byLanguage.zh),
        cell(r.tunedSets.byLanguage.en),
        cell(r.tunedSets.byLanguage.zh),
      ]),
    ),
  );
  if (levers.length > 0) {
    out.push(`\n### Levers: held-out recall@5 / MRR@10 (parameters chosen on the tuning families)\n`);
    out.push(
      table(
        ['lever', 'chosen on tuning families', 'held-out en', 'held-out zh', 'wrong-language top en / zh', 'kept'],
        levers.map((l) => [
          l.name,
          l.chosen,
          cell(l.heldOut.byLanguage.en),
          cell(l.heldOut.byLanguage.zh),
          `${l.heldOut.wrongLanguageTop.en ?? 0} / ${l.heldOut.wrongLanguageTop.zh ?? 0}`,
          `${l.kept ? 'kept' : 'dropped'}: ${l.why}`,
        ]),
      ),
    );
  }
  return `${out.join('\n')}\n`;
}
