/**
 * The split is by document family (the software project a manual documents), not by question: a
 * question split holds out questions about the same manuals the settings were chosen on, so its
 * figures say little about manuals never seen. Every family in the corpus is listed here with its
 * side; a document names its family (corpusDoc.ts), so the type system refuses an unassigned one.
 *
 * Tuning side: every family the eval held before the family split. Their questions, of both
 * halves of the old question split, have been read while settings were chosen, and together they
 * give the grid 414 questions in both languages and every format. Held-out side: every family
 * added for the family split, none of which any setting has seen; none is needed for tuning.
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

export function isHeldOut(family: Family): boolean {
  return FAMILY_SPLIT[family] === 'held-out';
}
