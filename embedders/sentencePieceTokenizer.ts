import { SentencePieceProcessor } from '@agnai/sentencepiece-js';

/**
 * SentencePiece pieces never span more characters than this (the trainer's max_piece_length),
 * so the first `maxIds * MAX_CHARS_PER_PIECE` characters always hold the first `maxIds` ids.
 */
const MAX_CHARS_PER_PIECE = 16;
/** Typical text needs 1.4 (Chinese) to 3.5 (English) characters per piece: try this cut first. */
const FIRST_TRY_CHARS_PER_PIECE = 4;

/** Lone surrogates: the WebAssembly side's UTF-8 conversion drops what follows one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export interface SentencePieceTokenizer {
  /** The ids of the text's first `maxIds` pieces (no BOS/EOS). */
  encode(text: string, maxIds: number): number[];
}

/** The tokenizer the model's graph carried, in WebAssembly; one instance per thread. */
export async function loadSentencePieceTokenizer(modelFile: string): Promise<SentencePieceTokenizer> {
  const processor = new SentencePieceProcessor();
  await processor.load(modelFile);
  // load() does not report a bad model file; a processor without a model returns no ids.
  if (processor.encodeIds('hello').length === 0) throw new Error(`${modelFile} is not a SentencePiece model`);
  return {
    encode(text, maxIds) {
      // Only a prefix can contribute ids, so only a prefix is tokenized: time stays bounded
      // whatever the text's length. The short cut suffices unless the text is unusually dense.
      const first = processor.encodeIds(prefix(text, maxIds * FIRST_TRY_CHARS_PER_PIECE));
      // More ids than needed: the cut (which may split the last piece) lies beyond those kept.
      if (first.length > maxIds || text.length <= maxIds * FIRST_TRY_CHARS_PER_PIECE) return first.slice(0, maxIds);
      return processor.encodeIds(prefix(text, maxIds * MAX_CHARS_PER_PIECE)).slice(0, maxIds);
    },
  };
}

/** The first `chars` UTF-16 units, never ending inside a surrogate pair, made well-formed. */
export function prefix(text: string, chars: number): string {
  let end = Math.min(text.length, chars);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end).replace(LONE_SURROGATE, '\uFFFD');
}
