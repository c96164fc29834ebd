import { z } from 'zod';

/**
 * The external parsing service's protocol (docs/parser-backends.md), in MinerU's task style:
 *
 *   POST {base}/tasks                      {url, file_name, file_type, data_id} → {task_id}
 *   GET  {base}/tasks/{task_id}            → {state, err_msg?, images?}
 *   GET  {base}/tasks/{task_id}/markdown   → the markdown (text/markdown)
 *   GET  {base}/tasks/{task_id}/images/{name} → one image's bytes
 *
 * `data_id` is sluice's task id: a service that answers a repeated create with the task it
 * already has for that id closes the one window (a crash between the create and the row that
 * records it) in which a second remote task could be made.
 */

/** Ids and names go into URL paths: checked structurally before use. */
const REMOTE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const IMAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export const MAX_IMAGES = 200;

export const createdTaskSchema = z.object({ task_id: z.string().regex(REMOTE_ID) });

export const REMOTE_STATES = ['pending', 'running', 'done', 'failed'] as const;
export type RemoteState = (typeof REMOTE_STATES)[number];

export const taskStatusSchema = z.object({
  state: z.enum(REMOTE_STATES),
  err_msg: z.string().max(4000).nullish(),
  images: z.array(z.string().regex(IMAGE_NAME)).max(MAX_IMAGES).nullish(),
});

export type RemoteTaskStatus = z.infer<typeof taskStatusSchema>;

export function isRemoteTaskId(value: unknown): value is string {
  return typeof value === 'string' && REMOTE_ID.test(value);
}
