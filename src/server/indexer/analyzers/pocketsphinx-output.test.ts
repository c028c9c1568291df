import { describe, expect, it } from 'vitest';
import { mergeSpotted, parsePocketsphinx } from './pocketsphinx-output';
import { promptWords } from './speech';

const STDOUT = `we filmed the sunset over the harbor
<s> 0.080 0.140 0.999800
we 0.150 0.340 0.999500
filmed 0.350 0.710 0.131844
the(2) 0.720 0.780 0.906820
[NOISE] 0.790 0.800 0.5
harbor 1.720 2.270 0.616895
<sil> 2.280 2.330 0.705224
</s> 2.340 2.400 1.000000
`;

describe('pocketsphinx output', () => {
  it('reads timed words without fillers or pronunciation variants', () => {
    expect(parsePocketsphinx(STDOUT).map((w) => [w.word, w.start, w.end])).toEqual([
      ['we', 0.15, 0.34],
      ['filmed', 0.35, 0.71],
      ['the', 0.72, 0.78],
      ['harbor', 1.72, 2.27],
    ]);
  });

  it('lets spotted prompt words replace what they cover, and inserts the rest', () => {
    const decoded = [
      { word: 'over', start: 1.38, end: 1.63 },
      { word: 'harbor', start: 1.72, end: 2.27 },
    ];
    const merged = mergeSpotted(decoded, [
      { word: 'harbour', start: 1.71, end: 2.29 },
      { word: 'lights', start: 3, end: 3.4 },
      { word: 'over', start: 1.4, end: 1.6 },
    ]);
    expect(merged.map((w) => w.word)).toEqual(['over', 'harbour', 'lights']);
  });

  it('takes prompt words as lower-case dictionary spellings', () => {
    expect(promptWords("Harbour Lights, the harbour; O'Brien 2024")).toEqual(['harbour', 'lights', 'the', "o'brien"]);
    expect(promptWords(undefined)).toEqual([]);
  });
});
