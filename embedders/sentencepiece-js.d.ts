// The package ships JavaScript only; these are the parts sluice calls (embedders/sentencePieceTokenizer.ts).
declare module '@agnai/sentencepiece-js' {
  export class SentencePieceProcessor {
    /** Reads the model file and builds a processor in a fresh WebAssembly instance. */
    load(modelPath: string): Promise<void>;
    encodeIds(text: string): number[];
    encodePieces(text: string): string[];
  }
}
