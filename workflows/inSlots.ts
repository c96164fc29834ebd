/**
 * Runs `work` on every item with at most `max` unfinished at once: a dataset rebuild and a
 * source's sync start document runs this way, so a large batch never floods the workers.
 */
export async function inSlots<T>(max: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  const open = new Set<Promise<void>>();
  for (const item of items) {
    while (open.size >= max) await Promise.race(open);
    const slot = work(item).finally(() => open.delete(slot));
    open.add(slot);
  }
  await Promise.all(open);
}
