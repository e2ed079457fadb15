/** The open pair: its bit diff, its texts side by side, its marks and the other near-duplicates of its document. */
import { useMemo, useState } from 'react';
import { docBlob, docFile, isHandleDocument, type ScanResult } from '../scan/scan-result.ts';
import { BitDiff } from '../ui/bit-diff/BitDiff.tsx';
import { PairView } from '../ui/pair-view/PairView.tsx';
import { usePairTexts } from './use-pair-texts.ts';
import { ON_DISK_NOTE, RemoveFromCorpus } from '../ui/corpus/RemoveFromCorpus.tsx';
import { MissingContents } from '../ui/pair-view/MissingContents.tsx';
import { matchPickedFiles } from '../ui/pair-view/match-picked-files.ts';
import { NeighbourList } from '../ui/pair-view/NeighbourList.tsx';
import { neighboursOf } from '../core/groups/duplicate-relation.ts';
import type { KeepMarksStore } from '../corpus/keep-marks-store.ts';
import { useKeepMarksField } from '../ui/keep/use-keep-marks.ts';
import { isSeparated, toggleSeparated } from '../core/keep/keep-marks.ts';
import type { DocId } from '../core/ids.ts';

/** The relation's Jaccard of two documents (1 for identical texts), NaN when they are not a pair. */
function pairJaccard(result: ScanResult, a: number, b: number): number {
  for (const n of neighboursOf(result.relation, a)) if (n.doc === b) return n.jaccard;
  return Number.NaN;
}

/** The containment of `a` in `b` when the result lists a as contained in b, else undefined. */
function containmentOf(result: ScanResult, a: number, b: number): number | undefined {
  const c = result.contained;
  for (let i = 0; c && i < c.count; i++) if (c.inner[i] === a && c.outer[i] === b) return c.containment[i];
  return undefined;
}

/** The two documents of the open pair, as the bit diff and the side-by-side texts. */
export function OpenPair({
  result,
  a,
  b,
  onClose,
  onRemove,
  onOpen,
  onMakeReference,
  marksStore,
}: {
  result: ScanResult;
  a: DocId;
  b: DocId;
  /** The saved "not a duplicate" pairs: this pair's button toggles its own. */
  marksStore: KeepMarksStore;
  onClose: () => void;
  onRemove?: (positions: DocId[]) => void;
  /** Opens the pair (other, b) from the list of b's near-duplicates, which stays on show. */
  onOpen: (a: DocId, b: DocId) => void;
  onMakeReference?: (doc: DocId) => void;
}) {
  const neighbours = useMemo(() => neighboursOf(result.relation, b), [result.relation, b]);
  const jaccard = useMemo(() => pairJaccard(result, a, b), [result, a, b]);
  const separated = useKeepMarksField(marksStore, 'separated');
  const apart = isSeparated(separated, a, b);
  const isReference = result.relation.groups.reference[result.relation.groups.groupOf[b]] === b;
  const { docs } = result;
  // A contained pair (a inside b): the pair view marks the passage of b they share.
  const containedInB = useMemo(() => containmentOf(result, a, b), [result, a, b]);
  // Restored documents whose contents were not kept have an empty File: the person may pick them again.
  const [picked, setPicked] = useState<Map<string, File>>(() => new Map());
  const [mismatch, setMismatch] = useState<string | null>(null);
  // A document read through a directory handle is opened again by its path (a promise of its File).
  const fileOf = (d: number): Blob | Promise<Blob> | null =>
    isHandleDocument(docs, d) ? docBlob(docs, d) : docs.files[d]!.size > 0 ? docFile(docs, d) : (picked.get(docs.paths[d]!) ?? null);
  // Memoized: a restored document's Blob is sliced from its batch's record when asked for, a new Blob each time.
  const fileA = useMemo(() => fileOf(a), [docs, a, picked]);
  const fileB = useMemo(() => fileOf(b), [docs, b, picked]);
  const missing: string[] = [];
  if (!fileA) missing.push(docs.paths[a]!);
  if (!fileB) missing.push(docs.paths[b]!);
  const texts = usePairTexts(fileA, fileB, docs.paths[a]!, docs.paths[b]!, result.settings, jaccard);
  const pick = (files: File[]) => {
    const found = matchPickedFiles(missing, files);
    setPicked((old) => new Map([...old, ...found]));
    setMismatch(found.size === 0 ? `None of the picked files is named like ${missing.join(' or ')}.` : null);
  };
  return (
    <section className="app-pair" aria-label="Open pair">
      <BitDiff
        hiA={docs.hi[a]}
        loA={docs.lo[a]}
        hiB={docs.hi[b]}
        loB={docs.lo[b]}
        labelA={docs.paths[a]}
        labelB={docs.paths[b]}
        jaccard={texts.phase === 'ready' ? texts.jaccard : null}
        containment={texts.phase === 'ready' ? texts.containment : null}
        lengthA={texts.phase === 'ready' ? texts.textA.length : undefined}
        lengthB={texts.phase === 'ready' ? texts.textB.length : undefined}
      />
      {onRemove && (
        <div className="app-pair-remove" role="group" aria-label="Remove from the saved corpus">
          <RemoveFromCorpus path={docs.paths[a]} onRemove={() => onRemove([a as DocId])} noteId={`pair-${a}-${b}-on-disk`} />
          <RemoveFromCorpus path={docs.paths[b]} onRemove={() => onRemove([b as DocId])} noteId={`pair-${a}-${b}-on-disk`} />
          <small id={`pair-${a}-${b}-on-disk`} className="corpus-remove__note">
            {ON_DISK_NOTE}
          </small>
        </div>
      )}
      <div className="app-pair-mark" role="group" aria-label="This pair">
        <button type="button" className="ss-button" aria-pressed={apart} aria-describedby={`pair-${a}-${b}-apart`} onClick={() => marksStore.setSeparated(toggleSeparated(separated, a, b))}>
          Not duplicates of each other
        </button>
        <small id={`pair-${a}-${b}-apart`} className="ss-muted">
          {apart
            ? 'Marked: this pair is left out of the exported pairs and the counts (and of the plan, where one is its group’s reference); each file keeps its other matches.'
            : 'Leaves only this pair out of the exported pairs and the counts; each file keeps its other matches.'}
        </small>
      </div>
      <NeighbourList
        doc={b}
        neighbours={neighbours}
        paths={docs.paths}
        current={a}
        onOpen={(other) => onOpen(other, b)}
        onMakeReference={onMakeReference && (() => onMakeReference(b))}
        isReference={isReference}
      />
      {missing.length > 0 ? (
        <MissingContents paths={missing} onPick={pick} mismatch={mismatch} />
      ) : texts.phase === 'ready' ? (
        <PairView pathA={docs.paths[a]} pathB={docs.paths[b]} textA={texts.textA} textB={texts.textB} formatA={texts.formatA} formatB={texts.formatB} onClose={onClose} {...(containedInB !== undefined ? { containedInB } : {})} />
      ) : texts.phase === 'error' ? (
        <p role="alert" className="ss-panel app-note app-note--error">
          {texts.message}
        </p>
      ) : (
        <p role="status" className="ss-panel app-note">
          Reading the two documents…
        </p>
      )}
    </section>
  );
}


/** What the pair column shows while no pair is open. */
export function PairHint() {
  return (
    <div className="ss-panel app-pair-hint">
      <h2 className="ss-panel-title">Compare a pair</h2>
      <p className="ss-muted">
        Select a document in a group (click it, or use the arrow keys and Enter in the list) to see its fingerprint next to
        the group’s reference, bit by bit, and the two texts side by side with the differences marked.
      </p>
    </div>
  );
}
