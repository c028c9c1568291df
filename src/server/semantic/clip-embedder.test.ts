import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { TINY_CLIP_MAX_TOKENS, tinyClipTokenizer, writeTinyClip } from '../../../test/helpers/tiny-clip/tiny-clip';
import { loadClipEmbedder, loadClipTokenizer, type ClipTextInputs } from './clip-embedder';
import { semanticConfigSchema } from './semantic-config';

/**
 * The embedder's loading path (transformers.js from the cache folder) on the generated model, whose tokenizer.json is
 * CLIP's byte-level BPE. Expected ids are worked out from CLIP's vocabulary layout: byte symbols in bytes_to_unicode
 * order (printable ASCII from "!" = 0, so "a" = 97 - 33 = 64), the same symbols ending a word at +256 ("a</w>" = 320,
 * as in the real CLIP), one token per merge from 512 on, then <|startoftext|> and <|endoftext|>.
 */

const MODEL = 'tests/tiny-clip';
const { merges } = tinyClipTokenizer();
const SOT = 512 + merges.length;
const EOT = SOT + 1;
/** The token a merge makes. */
const merged = (merge: string) => {
  const rank = merges.indexOf(merge);
  expect(rank, `merge "${merge}"`).toBeGreaterThanOrEqual(0);
  return 512 + rank;
};
const ids = (inputs: ClipTextInputs) => Array.from(inputs.input_ids.data as BigInt64Array, Number);

describe('CLIP tokenizer and embedder on the generated model', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let tokenize: (text: string) => ClipTextInputs;

  beforeAll(async () => {
    ({ dir: root, cleanup } = await tempDir('reelsync-clip-embedder-'));
    await writeTinyClip(join(root, MODEL));
    tokenize = await loadClipTokenizer(root, MODEL);
  });
  afterAll(() => cleanup());

  it('gives the ids the BPE rules give: learned words whole, other words in byte pieces', () => {
    // "red" -> r e d</w>; the merge "r e" then "re d</w>" makes it one token.
    expect(ids(tokenize('red'))).toEqual([SOT, merged('re d</w>'), EOT]);
    expect(ids(tokenize('a'))).toEqual([SOT, 320, EOT]);
    // No merge joins "z" and "q</w>": the unknown word stays in its bytes, "z" = 122 - 33, "q</w>" = 256 + 113 - 33.
    expect(ids(tokenize('zq'))).toEqual([SOT, 89, 336, EOT]);
    // "café" is c a f 0xC3 0xA9 in UTF-8. Bytes 161-172 follow the 94 printable ASCII ones (0xA9 = 169 -> 94 + 8,
    // "©</w>" 358), then 174-255 (0xC3 = 195 -> 106 + 21 = 127, "Ã"); no merge applies to "c a f".
    expect(ids(tokenize('café'))).toEqual([SOT, 66, 64, 69, 127, 358, EOT]);
    // NFC: "e" + combining acute is the same word.
    expect(ids(tokenize('cafe\u0301'))).toEqual(ids(tokenize('café')));
    // Lowercase and whitespace collapse, then CLIP's split into words.
    expect(ids(tokenize('  Blue \t SKY '))).toEqual([SOT, merged('blu e</w>'), merged('s ky</w>'), EOT]);
    const inputs = tokenize('blue sky');
    expect(inputs.input_ids.type).toBe('int64');
    expect(inputs.input_ids.dims).toEqual([1, 4]);
    expect(inputs.attention_mask.type).toBe('int64');
    expect(Array.from(inputs.attention_mask.data as BigInt64Array, Number)).toEqual([1, 1, 1, 1]);
  });

  it('cuts a text longer than the model takes before <|endoftext|>, which stays last', () => {
    const long = tokenize(Array.from({ length: 30 }, () => 'dog').join(' '));
    expect(ids(long)).toEqual([SOT, ...Array<number>(TINY_CLIP_MAX_TOKENS - 2).fill(merged('do g</w>')), EOT]);
    expect(long.attention_mask.dims).toEqual([1, TINY_CLIP_MAX_TOKENS]);
  });

  it('embeds different words differently, through the real text model', async () => {
    const embedder = await loadClipEmbedder(root, semanticConfigSchema.parse({ model: MODEL }));
    try {
      const vector = async (text: string) => Array.from(await embedder.embedText(text));
      expect(embedder.dim).toBe(4);
      expect(await vector('red')).toEqual([1, 0, 0, 0]);
      expect(await vector('green')).toEqual([0, 1, 0, 0]);
      expect(await vector('Blue')).toEqual([0, 0, 1, 0]);
      expect(await vector('dog')).toEqual([0, 0, 0, 1]);
      // Words the model links to a colour, and a mix (the sum, unit length).
      expect(await vector('tomato')).toEqual([1, 0, 0, 0]);
      const [r, g, b, other] = await vector('red grass');
      expect([r, g, b, other]).toEqual([expect.closeTo(Math.SQRT1_2, 6), expect.closeTo(Math.SQRT1_2, 6), 0, 0]);
      // Byte pieces of unknown words carry nothing here.
      expect(await vector('café zq')).toEqual([0, 0, 0, 0]);
    } finally {
      await embedder.close();
    }
  });
});
