/** The quality evaluation corpus: originals, their planted-edit copies, short notes and boilerplate-sharing files. */
import { Rng } from './prng.ts';
import { type DocumentKind, type Paragraphs, joinParagraphs, originalDocument, shortDocument, license, prose } from './documents.ts';
import { type Edit, applyEdit, editLabel } from './edits.ts';

export interface CorpusDocument {
  /** The file text. */
  text: string;
  /** Documents generated from one original share a family; unrelated documents have their own. */
  family: number;
  /** `original`, an edit label such as `replace-1%`, `short`, `short-copy:...` or `shared-boilerplate`. */
  role: string;
  kind: DocumentKind | 'short' | 'shared-boilerplate';
  /** For an edited copy, the index of the document it was made from; otherwise -1. */
  source: number;
}

export interface CorpusOptions {
  seed: number;
  /** Long-document originals; each gets a 1%-edited copy and three other edited copies. */
  originals: number;
  /** Short notes (under 50 words); most get a lightly edited copy. */
  shorts: number;
  /** Boilerplate headers, each shared by `boilerplateFamilySize` otherwise unrelated files. */
  boilerplateFamilies: number;
  boilerplateFamilySize: number;
}

export const DEFAULT_CORPUS_OPTIONS: CorpusOptions = {
  seed: 20261122,
  originals: 420,
  shorts: 260,
  boilerplateFamilies: 30,
  boilerplateFamilySize: 10,
};

const KINDS: readonly DocumentKind[] = ['license', 'changelog', 'readme', 'prose'];
const WORD_FRACTIONS = [0.01, 0.03, 0.05, 0.1, 0.2];
const ONE_PERCENT: readonly Edit[] = [
  { kind: 'delete', fraction: 0.01 },
  { kind: 'insert', fraction: 0.01 },
  { kind: 'replace', fraction: 0.01 },
];
/** The edits other than 1%, one of which each original draws three times (without repetition). */
const OTHER_EDITS: readonly Edit[] = [
  ...(['delete', 'insert', 'replace'] as const).flatMap((kind) =>
    WORD_FRACTIONS.filter((f) => f !== 0.01).map((fraction): Edit => ({ kind, fraction })),
  ),
  { kind: 'reorder' },
  { kind: 'reorder' },
  { kind: 'case-whitespace' },
  { kind: 'case-whitespace' },
  { kind: 'boilerplate' },
  { kind: 'boilerplate' },
];

/** Lengths as in a real folder: some short files, most a few hundred words, a tail of long ones. */
function originalLength(rng: Rng): number {
  const r = rng.next();
  if (r < 0.15) return rng.int(60, 150);
  if (r < 0.65) return rng.int(150, 800);
  return rng.int(800, 3000);
}

/** Builds the whole corpus deterministically from the seed. */
export function generateCorpus(options: CorpusOptions = DEFAULT_CORPUS_OPTIONS): CorpusDocument[] {
  const rng = new Rng(options.seed);
  const docs: CorpusDocument[] = [];
  let family = 0;
  const add = (paragraphs: Paragraphs, fam: number, role: string, kind: CorpusDocument['kind'], source: number): number => {
    docs.push({ text: joinParagraphs(paragraphs), family: fam, role, kind, source });
    return docs.length - 1;
  };

  for (let i = 0; i < options.originals; i++) {
    const kind = KINDS[i % KINDS.length]!;
    const paragraphs = originalDocument(rng, kind, originalLength(rng));
    const fam = family++;
    const id = add(paragraphs, fam, 'original', kind, -1);
    const oneP = rng.pick(ONE_PERCENT);
    add(applyEdit(rng, paragraphs, oneP), fam, editLabel(oneP), kind, id);
    const others = rng.shuffle(OTHER_EDITS.slice()).slice(0, 3);
    for (const edit of others) add(applyEdit(rng, paragraphs, edit), fam, editLabel(edit), kind, id);
  }

  for (let i = 0; i < options.shorts; i++) {
    const paragraphs = shortDocument(rng, rng.int(8, 49));
    const fam = family++;
    const id = add(paragraphs, fam, 'short', 'short', -1);
    const r = rng.next();
    if (r < 0.25) add(applyEdit(rng, paragraphs, { kind: 'case-whitespace' }), fam, 'short-copy:case-whitespace', 'short', id);
    else if (r < 0.45) add(applyEdit(rng, paragraphs, { kind: 'replace', fraction: 1 / 60 }), fam, 'short-copy:replace-1-word', 'short', id);
    else if (r < 0.6) add(applyEdit(rng, paragraphs, { kind: 'delete', fraction: 1 / 60 }), fam, 'short-copy:delete-1-word', 'short', id);
    else if (r < 0.7) add(applyEdit(rng, paragraphs, { kind: 'replace', fraction: 0.1 }), fam, 'short-copy:replace-10%', 'short', id);
  }

  // Unrelated files that open with the same long header: similar only when the body is short.
  for (let f = 0; f < options.boilerplateFamilies; f++) {
    const header = license(rng, rng.int(80, 500));
    for (let j = 0; j < options.boilerplateFamilySize; j++) {
      const body = prose(rng, rng.int(10, 400)).slice(1);
      add([...header, ...body], family++, 'shared-boilerplate', 'shared-boilerplate', -1);
    }
  }
  return docs;
}
