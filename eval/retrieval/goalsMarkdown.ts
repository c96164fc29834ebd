import type { GoalCheck } from './goals';
import type { FusionSpec } from './rankers';

/** The goal checks and what the kept levers came to, as the report's last section. */
export function goalsMarkdown(
  goals: { searchDefault: GoalCheck[]; keptLevers: GoalCheck[] },
  combined: { spec: FusionSpec; kept: string[] },
): string {
  const rows = goals.searchDefault.map((g, i) => {
    const k = goals.keptLevers[i];
    return `| ${g.goal} | ${g.met ? 'met' : 'not met'}: ${g.detail} | ${k?.met ? 'met' : 'not met'}: ${k?.detail ?? ''} |`;
  });
  return [
    `### Goals on the held-out half\n`,
    `Kept levers: ${combined.kept.join(', ') || 'none'}; combined spec \`${JSON.stringify(combined.spec)}\`.\n`,
    '| goal | search default | kept levers together |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
