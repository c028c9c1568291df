/**
 * A small byte-level BPE tokenizer of the exact shape the real CLIP models ship (Hugging Face's `CLIPConverter` output,
 * as in openai/clip-vit-base-patch32 and its Xenova ONNX copies): NFC + whitespace collapse + lowercase, CLIP's split
 * regex then ByteLevel, a BPE model with `</w>` ending each word, `<|startoftext|>`/`<|endoftext|>` around the text.
 * The vocabulary is laid out as CLIP's is: the 256 byte symbols (ids 0-255), the same with `</w>` (256-511), one token
 * per merge in merge order, then the two special tokens. The merges are learned here, by BPE training on the words
 * given, until each of them is one token; any other word falls apart into smaller pieces, down to single bytes.
 */

export const START_OF_TEXT = '<|startoftext|>';
export const END_OF_TEXT = '<|endoftext|>';
const WORD_END = '</w>';

/** CLIP's (and GPT-2's) bytes_to_unicode: byte b is the symbol at index b's position below (printable bytes first). */
export function byteSymbols(): { byte: number; symbol: string }[] {
  const printable = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  const out: { byte: number; symbol: string }[] = [];
  for (let b = 0; b < 256; b++) if (printable(b)) out.push({ byte: b, symbol: String.fromCodePoint(b) });
  let shifted = 0;
  for (let b = 0; b < 256; b++) if (!printable(b)) out.push({ byte: b, symbol: String.fromCodePoint(256 + shifted++) });
  return out;
}

/** A word as byte symbols, the last one marked as ending the word (the units BPE merges). */
function symbolsOf(word: string, symbolOfByte: Map<number, string>): string[] {
  const symbols = [...new TextEncoder().encode(word.normalize('NFC').toLowerCase())].map((b) => symbolOfByte.get(b)!);
  symbols[symbols.length - 1] += WORD_END;
  return symbols;
}

/**
 * BPE training: merge the most frequent adjacent pair (ties: the pair that sorts first) across the words until no
 * pair is left, i.e. every word is one symbol.
 */
export function learnMerges(words: readonly string[]): [string, string][] {
  const symbolOfByte = new Map(byteSymbols().map((s) => [s.byte, s.symbol]));
  let corpus = words.map((w) => symbolsOf(w, symbolOfByte));
  const merges: [string, string][] = [];
  for (;;) {
    const counts = new Map<string, { pair: [string, string]; n: number }>();
    for (const word of corpus)
      for (let i = 0; i + 1 < word.length; i++) {
        const pair: [string, string] = [word[i]!, word[i + 1]!];
        const key = JSON.stringify(pair);
        const seen = counts.get(key);
        if (seen) seen.n++;
        else counts.set(key, { pair, n: 1 });
      }
    let best: { key: string; pair: [string, string]; n: number } | undefined;
    for (const [key, c] of counts)
      if (!best || c.n > best.n || (c.n === best.n && key < best.key)) best = { key, ...c };
    if (!best) return merges;
    const [a, b] = best.pair;
    merges.push([a, b]);
    corpus = corpus.map((word) => {
      const merged: string[] = [];
      for (let i = 0; i < word.length; i++) {
        if (word[i] === a && word[i + 1] === b) {
          merged.push(a + b);
          i++;
        } else merged.push(word[i]!);
      }
      return merged;
    });
  }
}

export interface ClipTokenizerFiles {
  /** tokenizer.json */
  tokenizer: object;
  /** tokenizer_config.json */
  config: object;
  /** Token -> id, in id order. */
  vocab: Map<string, number>;
  /** The merges in rank order, as tokenizer.json lists them ("r e"). */
  merges: string[];
}

const special = (content: string, id: number) => ({
  id,
  content,
  single_word: false,
  lstrip: false,
  rstrip: false,
  normalized: true,
  special: true,
});

const addedToken = (content: string) => ({
  __type: 'AddedToken',
  content,
  single_word: false,
  lstrip: false,
  rstrip: false,
  normalized: true,
});

/** The tokenizer files of a CLIP model whose merges are learned on `words`; texts longer than maxLength are cut. */
export function clipTokenizerFiles(words: readonly string[], maxLength: number): ClipTokenizerFiles {
  const symbols = byteSymbols().map((s) => s.symbol);
  const merges = learnMerges(words);
  const vocab = new Map<string, number>();
  for (const token of [...symbols, ...symbols.map((s) => s + WORD_END), ...merges.map(([a, b]) => a + b)])
    if (!vocab.has(token)) vocab.set(token, vocab.size);
  const sot = vocab.size;
  const eot = sot + 1;
  vocab.set(START_OF_TEXT, sot).set(END_OF_TEXT, eot);
  const mergeLines = merges.map(([a, b]) => `${a} ${b}`);
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(START_OF_TEXT, sot), special(END_OF_TEXT, eot)],
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'NFC' },
        { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' },
        { type: 'Lowercase' },
      ],
    },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        {
          type: 'Split',
          pattern: { Regex: "'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+" },
          behavior: 'Removed',
          invert: true,
        },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
      ],
    },
    // What HF's CLIPConverter writes ("a ByteLevel and TemplateProcessing" in one): <|startoftext|> A <|endoftext|>.
    post_processor: {
      type: 'RobertaProcessing',
      sep: [END_OF_TEXT, eot],
      cls: [START_OF_TEXT, sot],
      trim_offsets: false,
      add_prefix_space: false,
    },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: END_OF_TEXT,
      continuing_subword_prefix: '',
      end_of_word_suffix: WORD_END,
      fuse_unk: false,
      byte_fallback: false,
      vocab: Object.fromEntries(vocab),
      merges: mergeLines,
    },
  };
  const config = {
    unk_token: addedToken(END_OF_TEXT),
    bos_token: addedToken(START_OF_TEXT),
    eos_token: addedToken(END_OF_TEXT),
    pad_token: END_OF_TEXT,
    add_prefix_space: false,
    errors: 'replace',
    do_lower_case: true,
    model_max_length: maxLength,
    tokenizer_class: 'CLIPTokenizer',
  };
  return { tokenizer, config, vocab, merges: mergeLines };
}
