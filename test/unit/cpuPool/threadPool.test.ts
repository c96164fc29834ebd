import path from 'node:path';
import { SluiceError } from '../../../contracts/sluiceError';
import { ThreadPool, type LimitFailures, type ThreadLimits } from '../../../cpuPool/threadPool';

const HOSTILE_TASKS = path.join(__dirname, '../../../testkit/fakes/hostileTasks.ts');

/** Distinct codes per limit, so each test shows which limit the pool said was hit. */
const FAILURES: LimitFailures = {
  what: 'the test task',
  timeout: 'PARSE_TIMEOUT',
  heap: 'FILE_TOO_LARGE',
  crash: 'PARSE_ENGINE_FAILED',
};

function poolOf(threads: number, limits: ThreadLimits): ThreadPool {
  return new ThreadPool({ taskModule: HOSTILE_TASKS, threads, limits, warmTask: 'echo' });
}

describe('ThreadPool', () => {
  let pool: ThreadPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('aborts a task stuck in a synchronous loop at the time limit, then serves the next task on a fresh thread', async () => {
    pool = poolOf(1, { timeoutMs: 300, maxHeapMb: 256 });
    const stuck = pool.run('spin', null, FAILURES);
    await expect(stuck).rejects.toBeInstanceOf(SluiceError);
    await expect(stuck).rejects.toMatchObject({
      code: 'PARSE_TIMEOUT',
      permanent: true,
      message: expect.stringContaining('300 ms limit'),
    });
    await expect(pool.run('echo', 'next document', FAILURES)).resolves.toBe('next document');
    expect(pool.threads).toBe(1);
  });

  it('fails a task that allocates past the heap cap with the heap code, and the pool keeps serving', async () => {
    pool = poolOf(1, { timeoutMs: 60_000, maxHeapMb: 64 });
    const hog = pool.run('hog', null, FAILURES);
    await expect(hog).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      permanent: true,
      message: expect.stringContaining('64 MB heap'),
    });
    await expect(pool.run('echo', 'still here', FAILURES)).resolves.toBe('still here');
  });

  it('keeps serving the other thread while one task hogs its own', async () => {
    pool = poolOf(2, { timeoutMs: 60_000, maxHeapMb: 64 });
    const hog = pool.run('hog', null, FAILURES);
    const others = Promise.all(['a', 'b', 'c'].map((word) => pool!.run('echo', word, FAILURES)));
    await expect(others).resolves.toEqual(['a', 'b', 'c']);
    await expect(hog).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });

  it('reports a thread that exits mid-task as a crash', async () => {
    pool = poolOf(1, { timeoutMs: 60_000, maxHeapMb: 256 });
    await expect(pool.run('exit', null, FAILURES)).rejects.toMatchObject({
      code: 'PARSE_ENGINE_FAILED',
      permanent: true,
    });
    await expect(pool.run('echo', 'after the crash', FAILURES)).resolves.toBe('after the crash');
  });

  it("brings a task's classified error back with its code and permanence", async () => {
    pool = poolOf(1, { timeoutMs: 60_000, maxHeapMb: 256 });
    const refused = pool.run('refuse', null, FAILURES);
    await expect(refused).rejects.toBeInstanceOf(SluiceError);
    await expect(refused).rejects.toMatchObject({
      code: 'CORRUPT_DOCUMENT',
      permanent: true,
      message: 'the test file is damaged',
    });
  });

  it('counts the time limit from when a thread starts the task, not from when it was queued', async () => {
    // One thread, three tasks of 600 ms each under a 1.5 s limit: the last waits 1.2 s in the
    // queue, so a limit counted from submission would cut it off.
    pool = poolOf(1, { timeoutMs: 1500, maxHeapMb: 256 });
    const results = await Promise.all([600, 600, 600].map((ms) => pool!.run('busy', ms, FAILURES)));
    expect(results).toEqual([600, 600, 600]);
  });
});
