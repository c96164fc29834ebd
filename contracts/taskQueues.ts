/**
 * VECTORIZING runs on a task queue of its own, named after the workflow's queue: the workflow
 * derives it from workflowInfo().taskQueue (it reads no config) and the worker composition root
 * derives the same name, so every way of starting a run (client, retry, re-embed, API) reaches
 * the embedding workers without passing anything along.
 */
export function embeddingTaskQueue(taskQueue: string): string {
  return `${taskQueue}-embedding`;
}

/**
 * Chat and vision model calls (activities/stages/enrichChunks.ts, activities/stages/enrichMarkdown.ts) on a queue of their own, derived the
 * same way: a slow or rate-limited model holds these slots and no others.
 */
export function enrichmentTaskQueue(taskQueue: string): string {
  return `${taskQueue}-enrichment`;
}
