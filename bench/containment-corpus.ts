/**
 * A containment test corpus from real text nobody on the team wrote (the kernel's documentation, from
 * Debian's linux-doc): base documents as they are, excerpts (a run of 30-60% of a document's lines),
 * and documents with another appended, beside every other base document unrelated. Shared by the
 * containment bench and its unit test, so both score the same kind of corpus.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { mulberry32 } from '../tests/fixtures/mulberry32.ts';

export const LINUX_DOC = '/usr/share/doc/linux-doc/Documentation';

export interface ContainmentDoc {
  path: string;
  text: string;
  /** How the document was made: a base document, an excerpt of `from`, or `from` with `appended` after it. */
  kind: 'base' | 'excerpt' | 'appended';
  from?: string;
  appended?: string;
}

function listRst(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listRst(path, out);
    else if (name.endsWith('.rst.gz') || name.endsWith('.rst') || name.endsWith('.txt')) out.push(path);
  }
}

/**
 * `bases` real documents of at least 40 lines, `excerpts` excerpts and `appended` joined documents,
 * chosen by `seed`. Throws when linux-doc is missing.
 */
export function buildContainmentCorpus(bases: number, excerpts: number, appended: number, seed = 31): ContainmentDoc[] {
  const files: string[] = [];
  listRst(LINUX_DOC, files);
  const docs: ContainmentDoc[] = [];
  for (const file of files) {
    if (docs.length >= bases) break;
    const raw = readFileSync(file);
    const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
    if (text.split('\n').length < 40) continue;
    docs.push({ path: `base/${relative(LINUX_DOC, file).replace(/\.gz$/, '')}`, text, kind: 'base' });
  }
  return withMadeDocuments(docs, excerpts, appended, seed);
}


/**
 * `bases` followed by `excerpts` excerpts (a contiguous run of 30-60% of a base's lines, at least 12)
 * and `appended` documents (a base with another base after it), chosen by `seed`.
 */
export function withMadeDocuments(bases: readonly ContainmentDoc[], excerpts: number, appended: number, seed: number): ContainmentDoc[] {
  const docs = bases.slice();
  const random = mulberry32(seed);
  const pick = (n: number) => random() % n;
  const base = bases;
  for (let i = 0; i < excerpts; i++) {
    const from = base[pick(base.length)];
    const lines = from.text.split('\n');
    const share = 0.3 + (random() / 2 ** 32) * 0.3;
    const length = Math.max(12, Math.round(lines.length * share));
    const start = pick(Math.max(1, lines.length - length));
    docs.push({ path: `excerpt/${i}.txt`, text: lines.slice(start, start + length).join('\n'), kind: 'excerpt', from: from.path });
  }
  for (let i = 0; i < appended; i++) {
    const from = base[pick(base.length)];
    const other = base[pick(base.length)];
    if (other === from) continue;
    docs.push({ path: `appended/${i}.txt`, text: `${from.text}\n\nAppendix\n\n${other.text}`, kind: 'appended', from: from.path, appended: other.path });
  }
  return docs;
}
