/** The embedder port: any model that turns texts into fixed-dimension dense vectors. */
export interface Embedder {
  readonly model: string;
  readonly dimension: number;
  /** One vector per input text, in order. */
  embed(texts: string[]): Promise<number[][]>;
}
