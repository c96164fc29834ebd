/** What the test chat server (fakeChatServer.ts) answers to vision and table-repair requests. */

/** A vision model's description of an image: it names the image's digest, so a test can find it. */
export function fakeVisionAnswer(digest: string): string {
  return `A bar chart, figure ${digest.slice(0, 12)}, with three labelled bars.`;
}

/**
 * The table in the request, each row padded (or cut) to the header's width; `ragged` leaves the
 * last row one cell short, as a model that did not repair the table would.
 */
export function fakeRepairedTable(request: string, ragged: boolean): string {
  const rows = request
    .split('\n')
    .filter((line) => line.trim().startsWith('|'))
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim()),
    );
  const width = rows[0]?.length ?? 1;
  const fixed = rows.map((cells, r) => Array.from({ length: width }, (_, i) => cells[i] ?? (r === 1 ? '---' : '')));
  if (ragged && fixed.length > 2) fixed[fixed.length - 1] = (fixed[fixed.length - 1] ?? []).slice(0, width - 1);
  return fixed.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
