import { markdownLiteral } from '../contracts/markdownText';

/**
 * The one line the Temporal Web UI shows for an activity in a run's timeline, so the timeline
 * reads as the pipeline: "CLEANING report.pdf", "VECTORIZING report.pdf", "notify SUCCESS".
 * The UI renders it as markdown, so the subject (a file name) is shown literally, on one line
 * (contracts/markdownText.ts); a long name is cut (history stays small).
 */
const MAX_SUBJECT_CHARS = 120;

export function activitySummary(what: string, subject?: string): string {
  if (subject === undefined || subject === '') return what;
  return `${what} ${markdownLiteral(subject, MAX_SUBJECT_CHARS)}`;
}
