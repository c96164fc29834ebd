/**
 * Replaces every whitespace run that holds a line break by one space, keeping other runs as they
 * are. `\s*\n\s*` would do the same but rescans a long run without a newline from each of its
 * characters; matching whole runs is linear.
 */
export function joinLineBreaks(text: string): string {
  return text.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run));
}
