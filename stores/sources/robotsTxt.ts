/**
 * robots.txt as RFC 9309 reads it, the parts a crawler that only reads needs: the groups for the
 * `sluice` product token (else those for `*`), their Allow and Disallow rules with `*` and `$`,
 * the longest matching rule deciding and Allow winning a tie. No package in the tree parses it,
 * and the rules are small enough to keep here. Paths are compared as the URL writes them, without
 * re-encoding percent escapes.
 */
export interface RobotsRule {
  allow: boolean;
  pattern: string;
}

export const ROBOTS_AGENT = 'sluice';

interface Group {
  agents: string[];
  rules: RobotsRule[];
}

function groupsOf(text: string): Group[] {
  const groups: Group[] = [];
  let current: Group | null = null;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      // Consecutive user-agent lines share one group; one after a rule starts the next group.
      if (!current || current.rules.length > 0) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
    } else if ((key === 'allow' || key === 'disallow') && current) {
      // An empty Disallow allows everything, which is what no rule at all does.
      if (value !== '') current.rules.push({ allow: key === 'allow', pattern: value });
    }
  }
  return groups;
}

/** The rules that apply to sluice: every group naming it, merged, else every `*` group. */
export function parseRobots(text: string): RobotsRule[] {
  const groups = groupsOf(text);
  const own = groups.filter((g) => g.agents.includes(ROBOTS_AGENT));
  const chosen = own.length > 0 ? own : groups.filter((g) => g.agents.includes('*'));
  return chosen.flatMap((g) => g.rules);
}

function matches(pattern: string, target: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`).test(target);
}

/** True when the rules let sluice read `url` (its path and query). */
export function robotsAllow(rules: readonly RobotsRule[], url: URL): boolean {
  const target = `${url.pathname}${url.search}`;
  if (url.pathname === '/robots.txt') return true;
  let best: RobotsRule | null = null;
  for (const rule of rules) {
    if (!matches(rule.pattern, target)) continue;
    const longer = best === null || rule.pattern.length > best.pattern.length;
    const tieAllow = best !== null && rule.pattern.length === best.pattern.length && rule.allow;
    if (longer || tieAllow) best = rule;
  }
  return best === null || best.allow;
}
