// afterPack: WordNet's noun files as the app reads them (src/server/search/query/wordnet.ts): every synset with its
// words and the pointers synset() follows, without the glosses and the other pointers nothing reads (data.noun 14.6
// -> 5.3 MiB). Synsets are addressed by byte offset, so every offset (index.noun's, each line's own, each pointer's
// target) is rewritten to where its synset now starts. Both files then ship block-compressed under their own names
// (9.6 -> 2.6 MiB), which wordnet.ts reads by offset as it reads the plain files.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compressBlocks } from '../src/server/search/query/block-compressed';
import { NOUN_POINTERS_READ } from '../src/server/search/query/wordnet';

/** Lines of the licence header start with two spaces; WordNet's offsets are 8 digits, pointer counts 3. */
const isHeader = (line: string): boolean => line.startsWith('  ');
const offset8 = (n: number): string => String(n).padStart(8, '0');

/** A data.noun entry without its gloss and with only the pointers kept; `offsetOf` maps old offsets to new ones. */
function strippedEntry(line: string, offsetOf: (old: string) => string): string {
  const fields = line.split(' | ')[0]!.trimEnd().split(' ');
  const wordCount = parseInt(fields[3] ?? '', 16);
  const pointerAt = 4 + wordCount * 2;
  const pointerCount = Number(fields[pointerAt]);
  if (!Number.isInteger(wordCount) || !Number.isInteger(pointerCount))
    throw new Error(`data.noun: not a synset line: ${line.slice(0, 80)}`);
  const kept: string[] = [];
  for (let i = 0; i < pointerCount; i++) {
    const [symbol = '', target = '', pos = '', sourceTarget = ''] = fields.slice(
      pointerAt + 1 + i * 4,
      pointerAt + 5 + i * 4,
    );
    if (pos === 'n' && NOUN_POINTERS_READ.includes(symbol))
      kept.push(`${symbol} ${offsetOf(target)} ${pos} ${sourceTarget}`);
  }
  const words = fields.slice(1, pointerAt);
  return [offsetOf(fields[0]!), ...words, String(kept.length).padStart(3, '0'), ...kept].join(' ');
}

/** data.noun and index.noun stripped as the file comment says; both keep their licence header. */
export function stripNouns(data: string, index: string): { data: string; index: string } {
  const lines = data.split('\n');
  if (lines.at(-1) === '') lines.pop();
  // Entry lengths do not depend on the offsets' values (always 8 digits): place every entry, then write them.
  const moved = new Map<string, string>();
  let at = 0;
  for (const line of lines) {
    if (!isHeader(line)) moved.set(line.slice(0, 8), offset8(at));
    at += Buffer.byteLength(strippedLine(line, (old) => old)) + 1;
  }
  const offsetOf = (old: string): string => {
    const now = moved.get(old);
    if (now === undefined) throw new Error(`data.noun: a pointer to ${old}, which is no synset`);
    return now;
  };
  const strippedData = lines.map((line) => strippedLine(line, offsetOf)).join('\n') + '\n';
  const strippedIndex = index
    .split('\n')
    .map((line) => {
      if (line === '' || isHeader(line)) return line;
      const fields = line.trimEnd().split(' ');
      const synsets = Number(fields[2]);
      const head = fields.slice(0, fields.length - synsets);
      return [...head, ...fields.slice(fields.length - synsets).map(offsetOf)].join(' ');
    })
    .join('\n');
  return { data: strippedData, index: strippedIndex };
}

function strippedLine(line: string, offsetOf: (old: string) => string): string {
  return isHeader(line) ? line : strippedEntry(line, offsetOf);
}

/**
 * Replaces `dictDir`'s data.noun and index.noun (the packed app's copy, never node_modules') with their stripped,
 * block-compressed forms.
 */
export async function packWordNetNouns(dictDir: string): Promise<void> {
  const dataFile = join(dictDir, 'data.noun');
  const indexFile = join(dictDir, 'index.noun');
  const stripped = stripNouns(await readFile(dataFile, 'utf8'), await readFile(indexFile, 'utf8'));
  // New files, not writes through the old inodes: a packer that hard-links its inputs must not reach node_modules.
  // data.noun is read a line at a time (small blocks), index.noun whole (large blocks compress a little better).
  for (const [file, text, blockSize] of [
    [dataFile, stripped.data, 16 * 1024],
    [indexFile, stripped.index, 256 * 1024],
  ] as const) {
    await writeFile(`${file}.packed`, compressBlocks(Buffer.from(text, 'utf8'), blockSize));
    await rename(`${file}.packed`, file);
  }
}
