/**
 * The fixed held-out half: a question is held out when the FNV-1a hash of its id is odd. It
 * depends on the id alone, so adding or removing questions never moves another question across
 * the split, and nothing that looks at scores can choose it. Questions over the sets the defaults
 * were first tuned on (TUNED_SETS) are never held out: those settings have already seen them.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function isHeldOut(questionId: string, onTunedSet: boolean): boolean {
  return !onTunedSet && fnv1a(questionId) % 2 === 1;
}

/**
 * The document families (the software project a manual documents) of the corpus. Every family
 * the eval held before is listed as tuning; the families added with the held-out documents as held out.
 */
export const FAMILY_SPLIT = {
  'debian-faq': 'tuning',
  'debian-reference': 'tuning',
  'debian-maint-guide': 'tuning',
  debmake: 'tuning',
  'debian-installer': 'tuning',
  'distro-info': 'tuning',
  r: 'tuning',
  postgresql: 'tuning',
  bash: 'held-out',
  octave: 'held-out',
  'apache-httpd': 'held-out',
  git: 'held-out',
  sqlite: 'held-out',
  libreoffice: 'held-out',
  kicad: 'held-out',
  'gnu-tools-man': 'held-out',
} as const satisfies Record<string, 'tuning' | 'held-out'>;

export type Family = keyof typeof FAMILY_SPLIT;
