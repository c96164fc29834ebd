import { replyOf, type TaskReply } from './protocol';

/** What the pool sends a child process: one task at a time, named by its export. */
export interface ChildRequest {
  taskId: number;
  task: string;
  payload: unknown;
}

/**
 * What a child process sends back: that it is warm, one task's reply, or that the task began
 * another page of OCR (which extends its deadline: processPool.ts).
 */
export type ChildMessage =
  { ready: true } | { taskId: number; reply: TaskReply<unknown> } | { taskId: number; ocrPage: OcrPageStarted };

/** Which page's OCR began, of how many pages (null: not known ahead, as in a multi-frame image). */
export interface OcrPageStarted {
  page: number;
  pages: number | null;
}

/** A task gets its payload and a way to say it began another page of OCR. */
export type ChildTasks = Record<
  string,
  (payload: never, ocrPageStarted: (page: number, pages: number | null) => void) => unknown
>;

/**
 * The loop of a pool's child process (cpuPool/processPool.ts): announce readiness once `warm`
 * settles (the modules every task needs are loaded), then answer each request with data, as the
 * thread tasks do. The child ends with its parent: a closed IPC channel means nobody waits.
 */
export function serveTasks(tasks: ChildTasks, warm: Promise<unknown> = Promise.resolve()): void {
  process.on('disconnect', () => process.exit(0));
  process.on('message', (request: ChildRequest) => {
    const task = tasks[request.task];
    void replyOf(() => {
      if (!task) throw new Error(`the child process has no task ${request.task}`);
      return task(request.payload as never, (page, pages) =>
        send({ taskId: request.taskId, ocrPage: { page, pages } }),
      );
    }).then((reply) => send({ taskId: request.taskId, reply }));
  });
  void warm.catch(() => undefined).then(() => send({ ready: true }));
}

function send(message: ChildMessage): void {
  // A parent that went away wants no answer; 'disconnect' ends this process.
  if (process.connected) process.send?.(message);
}
