import { passageWindows } from '../../../chunker/passageWindows';
import { embedWithWindows } from '../../../embedders/embedWithWindows';
import type { Embedder } from '../../../embedders/embedder';

/** An embedder whose vector names the text it was given, so each vector can be traced back. */
function tracingEmbedder(extra = 0): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    model: 'tracing',
    dimension: 1,
    calls,
    embed: (texts: string[]) => {
      calls.push(texts);
      return Promise.resolve([...texts, ...Array.from({ length: extra }, () => 'extra')].map((t) => [t.length]));
    },
  };
}

const long = `Guide › Shell\n${Array.from({ length: 10 }, (_, i) => `Sentence ${i} explains one more thing about the shell.`).join(' ')}`;

describe('embedWithWindows', () => {
  it('embeds the texts and their windows in one call and gives each text its own windows back', async () => {
    const embedder = tracingEmbedder();
    const texts = ['Short one.', long, 'Another short one.'];
    const { vectors, windows } = await embedWithWindows(embedder, texts);
    expect(embedder.calls).toHaveLength(1);
    expect(vectors).toEqual(texts.map((t) => [t.length]));
    expect(windows[0]).toEqual([]);
    expect(windows[1]).toEqual(passageWindows(long).map((w) => [w.length]));
    expect(windows[2]).toEqual([]);
  });

  it('refuses a model that returns another count of vectors than it was given texts', async () => {
    await expect(embedWithWindows(tracingEmbedder(1), [long])).rejects.toThrow(/returned/);
  });
});
