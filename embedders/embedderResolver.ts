import type { Embedder } from './embedder';

/** Picks the embedder of the user who started the ingestion (docs/design.md §3, VECTORIZING). */
export interface EmbedderResolver {
  forUser(userId: string): Promise<Embedder>;
}

/** Every user gets the same embedder: the embedded default, which needs no per-user config. */
export function singleEmbedderResolver(embedder: Embedder): EmbedderResolver {
  return { forUser: () => Promise.resolve(embedder) };
}
