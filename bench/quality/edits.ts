/** Planted edits: the changes the quality corpus applies to an original to make its near-duplicate copies. */
import type { Rng } from './prng.ts';
import type { Paragraphs } from './documents.ts';
import { ADJECTIVES, BOILERPLATE_LINES, NOUNS, VERBS } from './vocabulary.ts';

export type WordEditKind = 'delete' | 'insert' | 'replace';

export type Edit =
  | { kind: WordEditKind; fraction: number }
  | { kind: 'reorder' }
  | { kind: 'case-whitespace' }
  | { kind: 'boilerplate' };

/** A short stable label such as `replace-5%`, used in the report. */
export function editLabel(edit: Edit): string {
  return 'fraction' in edit ? `${edit.kind}-${Math.round(edit.fraction * 100)}%` : edit.kind;
}

const randomWord = (rng: Rng): string => {
  const r = rng.next();
  return r < 0.5 ? rng.zipf(NOUNS, 0.5) : r < 0.75 ? rng.zipf(VERBS, 0.5) : rng.zipf(ADJECTIVES, 0.5);
};

/**
 * Deletes, inserts after, or replaces round(fraction x words) distinct words chosen uniformly over the
 * whole document ("words" are whitespace-separated, as a person editing the file sees them).
 */
function editWords(rng: Rng, paragraphs: Paragraphs, kind: WordEditKind, fraction: number): Paragraphs {
  const parts = paragraphs.map((p) => p.split(/(\s+)/));
  const positions: Array<[number, number]> = [];
  parts.forEach((tokens, pi) => {
    for (let ti = 0; ti < tokens.length; ti += 2) if (tokens[ti] !== '') positions.push([pi, ti]);
  });
  const count = Math.max(1, Math.round(fraction * positions.length));
  // Partial Fisher-Yates: the first `count` entries become a uniform sample without repetition.
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(rng.next() * (positions.length - i));
    const t = positions[i]!;
    positions[i] = positions[j]!;
    positions[j] = t;
    const [pi, ti] = positions[i]!;
    const tokens = parts[pi]!;
    if (kind === 'delete') tokens[ti] = '';
    else if (kind === 'insert') tokens[ti] = tokens[ti] + ' ' + randomWord(rng);
    else tokens[ti] = randomWord(rng);
  }
  return parts.map((tokens) => tokens.join('').replace(/ {2,}/g, ' ').trim()).filter((p) => p !== '');
}

/** Changes only letter case and whitespace: same tokens after normalization. */
function caseAndWhitespace(rng: Rng, paragraphs: Paragraphs): Paragraphs {
  return paragraphs.map((p) =>
    p
      .split(/(\s+)/)
      .map((token, i) => {
        if (i % 2 === 1) {
          const r = rng.next();
          return r < 0.1 ? token + ' ' : r < 0.15 ? '\t' : r < 0.2 ? '\r\n' : token;
        }
        const r = rng.next();
        return r < 0.1 ? token.toUpperCase() : r < 0.2 ? token.toLowerCase() : r < 0.25 ? token.charAt(0).toUpperCase() + token.slice(1) : token;
      })
      .join('') + (rng.chance(0.3) ? '   ' : ''),
  );
}

/** Inserts one boilerplate line 5-25 times between paragraphs (what makes TF weights drift). */
function repeatedBoilerplate(rng: Rng, paragraphs: Paragraphs): Paragraphs {
  const line = rng.pick(BOILERPLATE_LINES);
  const out = paragraphs.slice();
  const times = rng.int(5, 25);
  for (let i = 0; i < times; i++) out.splice(rng.int(0, out.length), 0, line);
  return out;
}

/** Applies one planted edit to a copy of the paragraphs. */
export function applyEdit(rng: Rng, paragraphs: Paragraphs, edit: Edit): Paragraphs {
  switch (edit.kind) {
    case 'delete':
    case 'insert':
    case 'replace':
      return editWords(rng, paragraphs, edit.kind, edit.fraction);
    case 'reorder': {
      // Keep the title in place, shuffle the rest, and make sure the order really changed.
      const rest = paragraphs.slice(1);
      if (rest.length < 2) return paragraphs.slice();
      const before = rest.join('\u0000');
      for (let attempt = 0; attempt < 5; attempt++) {
        rng.shuffle(rest);
        if (rest.join('\u0000') !== before) break;
      }
      return [paragraphs[0]!, ...rest];
    }
    case 'case-whitespace':
      return caseAndWhitespace(rng, paragraphs);
    case 'boilerplate':
      return repeatedBoilerplate(rng, paragraphs);
  }
}
