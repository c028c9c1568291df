import { constants } from 'node:fs';
import { access, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { mediaInput } from '../../../common/media/media-input';
import { runTool } from '../process';
import type { Availability, AudioAnalyzer, MediaInput, TimedWord } from '../types';
import { mergeSpotted, parsePocketsphinx } from './pocketsphinx-output';
import { ffmpegPath } from '../../../common/media/tools';

const BINARY = 'pocketsphinx_continuous';
const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
/** Short keywords are spotted where they were never said ("with", "boat" showed up in silence); long ones were not. */
const MIN_KEYWORD_PHONES = 5;
const KEYWORD_THRESHOLD = '1e-20';
const MAX_KEYWORDS = 200;

async function onPath(binary: string): Promise<string | null> {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, binary);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** Lower-case words of the transcription prompt, as the dictionary spells them. */
export function promptWords(prompt: string | undefined): string[] {
  const words = (prompt ?? '').toLowerCase().match(/[a-z][a-z']+/g) ?? [];
  return [...new Set(words)].slice(0, MAX_KEYWORDS);
}

/**
 * English speech to timed words with Debian's pocketsphinx (CMU Sphinx, en-us model). The transcription prompt is
 * honoured as vocabulary hints: its long words that the dictionary knows are keyword-spotted in a second pass and win
 * over what the language model decoded at the same time. Pocketsphinx has no way to bias its language model by text.
 */
export class SpeechAnalyzer implements AudioAnalyzer {
  readonly kind = 'audio';
  readonly name = 'speech';
  version = 'pocketsphinx';
  private binary: string | null = null;
  private dictionary: Map<string, number> | null = null;

  async available(): Promise<Availability> {
    this.binary = await onPath(BINARY);
    if (!this.binary)
      return { ok: false, reason: `${BINARY} is not installed (Debian packages pocketsphinx and pocketsphinx-en-us)` };
    try {
      await access(join(MODEL_DIR, 'en-us', 'mdef'));
    } catch {
      return {
        ok: false,
        reason: `the English model is missing from ${MODEL_DIR} (Debian package pocketsphinx-en-us)`,
      };
    }
    this.version = await packageVersion();
    return { ok: true };
  }

  async analyze(media: MediaInput, signal?: AbortSignal): Promise<TimedWord[]> {
    if (!media.hasAudio) return [];
    const binary = this.binary ?? (await onPath(BINARY));
    if (!binary) throw new Error(`${BINARY} is not installed`);
    const wav = join(media.workDir, 'speech.wav');
    await runTool(
      ffmpegPath(),
      [
        '-hide_banner',
        '-nostats',
        '-loglevel',
        'error',
        '-y',
        ...mediaInput('storedVideo', media.videoPath),
        '-vn',
        '-sn',
        '-dn',
        '-ac',
        '1',
        '-ar',
        '16000',
        '-c:a',
        'pcm_s16le',
        wav,
      ],
      { signal },
    );
    const args = ['-infile', wav, '-time', 'yes', '-logfn', '/dev/null'];
    const decoded = parsePocketsphinx((await runTool(binary, args, { signal })).stdout.toString('utf8'));
    const words: TimedWord[] = decoded.map(({ word, start, end }) => ({ word, start, end }));

    const keywords = await this.spottable(promptWords(media.transcriptionPrompt));
    if (keywords.length === 0) return words;
    const kwsFile = join(media.workDir, 'keywords.txt');
    await writeFile(kwsFile, keywords.map((k) => `${k} /${KEYWORD_THRESHOLD}/\n`).join(''));
    const spotted = parsePocketsphinx(
      (await runTool(binary, [...args, '-kws', kwsFile], { signal })).stdout.toString('utf8'),
    );
    return mergeSpotted(
      words,
      spotted.map(({ word, start, end }) => ({ word, start, end })),
    );
  }

  private async spottable(words: string[]): Promise<string[]> {
    if (words.length === 0) return [];
    this.dictionary ??= await loadDictionary();
    const dictionary = this.dictionary;
    return words.filter((w) => (dictionary.get(w) ?? 0) >= MIN_KEYWORD_PHONES);
  }

  async close(): Promise<void> {}
}

/** Word -> phone count of its first pronunciation, from the model's CMU dictionary. */
async function loadDictionary(): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  const text = await readFile(join(MODEL_DIR, 'cmudict-en-us.dict'), 'utf8');
  for (const line of text.split('\n')) {
    const [word, ...phones] = line.trim().split(/\s+/);
    if (word && !word.includes('(') && phones.length > 0) map.set(word, phones.length);
  }
  return map;
}

async function packageVersion(): Promise<string> {
  try {
    const { stdout } = await runTool('dpkg-query', ['-W', '-f', '${Version}', 'pocketsphinx']);
    const version = stdout.toString('utf8').trim();
    return version ? `pocketsphinx ${version} en-us` : 'pocketsphinx en-us';
  } catch {
    return 'pocketsphinx en-us';
  }
}
