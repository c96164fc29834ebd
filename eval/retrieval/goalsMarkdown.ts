import type { GoalCheck } from './goals';
import type { FusionSpec } from './rankers';

/** The goal checks of each fusion measured (one column each) and what the kept levers came to. */
export function goalsMarkdown(
  goals: Record<string, GoalCheck[]>,
  combined: { spec: FusionSpec; kept: string[] },
): string {
  const columns = Object.entries(goals);
  const first = columns[0]?.[1] ?? [];
  const rows = first.map((g, i) => {
    const cells = columns.map(([, checks]) => {
      const c = checks[i];
      return `${c?.met ? 'met' : 'not met'}: ${c?.detail ?? ''}`;
    });
    return `| ${g.goal} | ${cells.join(' | ')} |`;
  });
  return [
    `### Goals on the held-out families\n`,
    `Kept levers: ${combined.kept.join(', ') || 'none'}; combined spec \`${JSON.stringify(combined.spec)}\`.\n`,
    `| goal | ${columns.map(([name]) => name).join(' | ')} |`,
    `|---|${columns.map(() => '---|').join('')}`,
    ...rows,
    '',
  ].join('\n');
}
