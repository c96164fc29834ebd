import path from 'node:path';
import { ProcessPool, type ProcessLimits, type TaskMemory } from '../../../cpuPool/processPool';
import type { LimitFailures } from '../../../cpuPool/threadPool';

const HOSTILE_CHILD = path.join(__dirname, '../../../testkit/fakes/hostileChild.ts');
const MB = 1024 * 1024;
/**
 * How far past its limit a child's resident memory may get before the watchdog kills it: what it
 * allocates in one 5 ms poll plus the kill's delivery (docs/document-memory.md has the measurements).
 */
const MARGIN_BYTES = 64 * MB;

const FAILURES: LimitFailures = {
  what: 'the test task',
  timeout: 'PARSE_TIMEOUT',
  heap: 'FILE_TOO_LARGE',
  crash: 'PARSE_ENGINE_FAILED',
};

describe('ProcessPool', () => {
  let pool: ProcessPool | undefined;
  let memory: TaskMemory[];
  const poolOf = (limits: ProcessLimits, processes = 1, shortTaskReserve = 0) => {
    memory = [];
    pool = new ProcessPool({
      childModule: HOSTILE_CHILD,
      processes,
      shortTaskReserve,
      limits,
      onTaskMemory: (m) => memory.push(m),
    });
    return pool;
  };
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('kills a child whose Buffers outgrow the memory limit, within the stated margin, then serves the next task', async () => {
    const limits = { timeoutMs: 60_000, maxHeapMb: 256, maxMemoryMb: 320 };
    poolOf(limits);
    await expect(pool!.run('buffers', null, FAILURES)).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      permanent: true,
      message: expect.stringContaining('320 MB memory limit'),
    });
    // The heap cap alone would never have stopped it: the Buffers live outside the heap.
    expect(memory).toEqual([expect.objectContaining({ task: 'buffers', killedAtLimit: true })]);
    expect(memory[0]!.peakResidentBytes).toBeGreaterThan(limits.maxMemoryMb * MB);
    expect(memory[0]!.peakResidentBytes).toBeLessThanOrEqual(limits.maxMemoryMb * MB + MARGIN_BYTES);
    await expect(pool!.run('echo', 'next document', FAILURES)).resolves.toBe('next document');
  });

  it('fails a task that exhausts the heap with the heap code', async () => {
    poolOf({ timeoutMs: 60_000, maxHeapMb: 64, maxMemoryMb: 1024 });
    await expect(pool!.run('heap', null, FAILURES)).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: expect.stringContaining('64 MB heap'),
    });
    await expect(pool!.run('echo', 'still here', FAILURES)).resolves.toBe('still here');
  });

  it('kills a task stuck in a synchronous loop at the time limit', async () => {
    poolOf({ timeoutMs: 300, maxHeapMb: 256, maxMemoryMb: 512 });
    await expect(pool!.run('spin', null, FAILURES)).rejects.toMatchObject({
      code: 'PARSE_TIMEOUT',
      permanent: true,
      message: expect.stringContaining('300 ms limit'),
    });
    await expect(pool!.run('echo', 'after the loop', FAILURES)).resolves.toBe('after the loop');
  });

  it("a task marked long gains a page's limit for each page it OCRs, up to the document limit; a text-only one keeps the parse limit", async () => {
    poolOf({ timeoutMs: 300, ocrPageMs: 400, longTimeoutMs: 60_000, maxHeapMb: 256, maxMemoryMb: 512 });
    // Four pages a quarter-second apart: past the 300 ms parse limit, within 300 + 4 × 400.
    const scan = { pages: 4, everyMs: 250 };
    const told: unknown[] = [];
    await expect(
      pool!.run('ocrPages', scan, FAILURES, { long: true, onOcrPage: (started) => told.push(started) }),
    ).resolves.toBe('read 4 pages');
    // Each page's start reaches the caller, with the page count: CLEANING's progress.
    expect(told).toEqual([1, 2, 3, 4].map((page) => ({ page, pages: 4 })));
    // Not marked long, the same task has the parse limit only.
    await expect(pool!.run('ocrPages', scan, FAILURES)).rejects.toMatchObject({
      code: 'PARSE_TIMEOUT',
      message: expect.stringContaining('300 ms limit (SLUICE_PARSE_TIMEOUT)'),
    });
    // Long but reading no page (a text PDF): the parse limit too.
    await expect(pool!.run('spin', null, FAILURES, { long: true })).rejects.toMatchObject({
      message: expect.stringContaining('300 ms limit (SLUICE_PARSE_TIMEOUT)'),
    });
    await expect(pool!.run('ocrThenSpin', null, FAILURES, { long: true })).rejects.toMatchObject({
      message: expect.stringContaining(
        "700 ms limit (SLUICE_PARSE_TIMEOUT plus SLUICE_OCR_PAGE_TIMEOUT for each of the 1 pages it OCR'd)",
      ),
    });
    await pool!.close();
    poolOf({ timeoutMs: 300, ocrPageMs: 400, longTimeoutMs: 800, maxHeapMb: 256, maxMemoryMb: 512 });
    await expect(pool!.run('ocrPages', { pages: 8, everyMs: 250 }, FAILURES, { long: true })).rejects.toMatchObject({
      code: 'PARSE_TIMEOUT',
      message: expect.stringContaining('800 ms limit (SLUICE_OCR_DOCUMENT_TIMEOUT)'),
    });
  });

  it('reports a child that exits mid-task as a crash, and a classified refusal as it is', async () => {
    poolOf({ timeoutMs: 60_000, maxHeapMb: 256, maxMemoryMb: 512 });
    await expect(pool!.run('exit', null, FAILURES)).rejects.toMatchObject({
      code: 'PARSE_ENGINE_FAILED',
      message: expect.stringContaining('exit 3'),
    });
    await expect(pool!.run('refuse', null, FAILURES)).rejects.toMatchObject({
      name: 'SluiceError',
      code: 'CORRUPT_DOCUMENT',
      permanent: true,
    });
  });

  it('keeps serving from the other child while one is killed at the limit', async () => {
    poolOf({ timeoutMs: 60_000, maxHeapMb: 256, maxMemoryMb: 320 }, 2);
    const bomb = pool!.run('buffers', null, FAILURES);
    const others = Promise.all(['a', 'b', 'c'].map((word) => pool!.run('echo', word, FAILURES)));
    await expect(others).resolves.toEqual(['a', 'b', 'c']);
    await expect(bomb).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });

  it('fails queued and running tasks as transient when closed', async () => {
    poolOf({ timeoutMs: 60_000, maxHeapMb: 256, maxMemoryMb: 512 });
    const running = pool!.run('spin', null, FAILURES);
    const queued = pool!.run('echo', 'never', FAILURES);
    // Let the first one start in its child before closing.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const outcomes = Promise.allSettled([running, queued]);
    await pool!.close();
    const [first, second] = await outcomes;
    for (const outcome of [first, second]) {
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'PARSE_ENGINE_FAILED', permanent: false } });
    }
  });

  it('keeps its reserve for short tasks: long ones wait rather than take it', async () => {
    poolOf({ timeoutMs: 60_000, maxHeapMb: 256, maxMemoryMb: 512 }, 1, 1);
    // Two long tasks that never end: the first holds the one child long tasks may use, the second waits.
    const long = [0, 1].map(() => pool!.run('spin', null, FAILURES, { long: true }));
    const outcomes = Promise.allSettled(long);
    // Queued behind the waiting long task, each short one still runs at once, in the reserve child
    // (had the second long task taken it, these would never be answered).
    await expect(pool!.run('echo', 'first', FAILURES)).resolves.toBe('first');
    await expect(pool!.run('echo', 'second', FAILURES)).resolves.toBe('second');
    await pool!.close();
    expect((await outcomes).map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });
});
