/**
 * The one line the Temporal Web UI shows for an activity in a run's timeline, so the timeline
 * reads as the pipeline: "CLEANING report.pdf", "VECTORIZING report.pdf", "notify SUCCESS".
 * The UI renders it as single-line markdown, so the file name's control characters become spaces
 * and its markdown characters are escaped; a long name is cut (history stays small).
 */
const MAX_SUBJECT_CHARS = 120;

export function activitySummary(what: string, subject?: string): string {
  if (subject === undefined || subject === '') return what;
  const clipped = subject.length > MAX_SUBJECT_CHARS ? `${subject.slice(0, MAX_SUBJECT_CHARS - 1)}…` : subject;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const oneLine = clipped.replace(/[\u0000-\u001f\u007f]/g, ' ');
  // Underscores stay as they are: escaping them would spoil every snake_case name wherever the
  // summary is shown as plain text (the CLI), for the rare name that renders as emphasis.
  return `${what} ${oneLine.replace(/[\\`*[\]<>]/g, '\\$&')}`;
}
