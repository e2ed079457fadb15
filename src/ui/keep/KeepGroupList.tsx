/**
 * The keep panel's marks: one fieldset per listed group with a row per document (its role, a checkbox to
 * change its mark, "not a duplicate" for the document and for its pair with the reference), in a
 * virtual list, so every group is reachable by scrolling and only the groups on screen are made.
 */
import { useCallback, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { DuplicateRelation } from '../../core/groups/duplicate-relation.ts';
import { ROLE_KEEP, ROLE_REMOVE, type KeepDecision } from '../../core/keep/keep-rules.ts';
import { isSeparated, toggleSeparated, type MarkAction } from '../../core/keep/keep-marks.ts';
import type { ScanDocs } from '../../scan/scan-result.ts';
import { PathName } from '../shared/PathName.tsx';
import { displayName } from '../shared/display-name.ts';
import { formatSize } from '../shared/format-size.ts';
import { REASON_LABELS } from './keep-labels.ts';
import type { KeepMarksSnapshot, KeepMarksStore } from '../../corpus/keep-marks-store.ts';

export interface KeepGroupListProps {
  /** The groups listed (indexes into the relation's groups), in order. */
  listed: readonly number[];
  relation: DuplicateRelation;
  decision: KeepDecision;
  docs: ScanDocs & { modified?: ArrayLike<number> };
  saved: KeepMarksSnapshot;
  marksStore: KeepMarksStore;
  onAction: (action: MarkAction) => void;
}

// A group's first guess before it is measured: its legend and actions, then one line per document.
const GROUP_CHROME = 64;
const ROW = 26;
const GAP = 8;

/** Every listed group's marks in a scrolled, virtualized list. */
export function KeepGroupList({ listed, relation, decision, docs, saved, marksStore, onAction }: KeepGroupListProps) {
  const { groups } = relation;
  const scroller = useRef<HTMLDivElement>(null);
  const estimate = useCallback((i: number) => GROUP_CHROME + ROW * (groups.offsets[listed[i]! + 1]! - groups.offsets[listed[i]!]!), [groups, listed]);
  const virtualizer = useVirtualizer({
    count: listed.length,
    getScrollElement: () => scroller.current,
    estimateSize: estimate,
    overscan: 3,
    // The groups' spacing (keep.css), so the measured offsets add up to the laid-out list.
    gap: GAP,
    // Before layout (and in headless runs) render a first screenful instead of nothing.
    initialRect: { width: 800, height: 448 },
  });
  const toggle = (d: number, remove: boolean) => marksStore.setMarks(new Map(saved.marks).set(d, remove));
  const toggleIgnored = (d: number) => {
    const next = new Set(saved.ignored);
    if (!next.delete(d)) next.add(d);
    marksStore.setIgnored(next);
  };
  const time = (d: number) => {
    const t = docs.modified?.[d] ?? 0;
    return t > 0 ? new Date(t).toISOString().slice(0, 16).replace('T', ' ') : '';
  };
  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scroller} className="keep-panel__groups" role="group" aria-label="Marks">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <div className="keep-panel__window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((item) => {
            const g = listed[item.index]!;
            return (
              <fieldset key={g} ref={virtualizer.measureElement} data-index={item.index} className="keep-group">
                <legend>
                  Group {g + 1}
                  {relation.exactGroup[g] ? ' · identical copies' : ' · near-duplicates'}
                </legend>
                <div className="keep-group__actions">
                  <button type="button" className="ss-link-button" aria-label={`Keep one, mark the rest in group ${g + 1}`} onClick={() => onAction({ kind: 'keep-one', group: g })}>
                    Keep one, mark the rest
                  </button>{' '}
                  <button type="button" className="ss-link-button" aria-label={`Invert marks in group ${g + 1}`} onClick={() => onAction({ kind: 'invert', group: g })}>
                    Invert
                  </button>
                </div>
                <ul>
                  {Array.from({ length: groups.offsets[g + 1]! - groups.offsets[g]! }, (_, i) => {
                    const s = groups.offsets[g]! + i;
                    const d = groups.members[s]!;
                    const role = decision.role[s]!;
                    const out = decision.reason[s] === 'ignored';
                    const kept = decision.keeper[g] === d && !out;
                    const match = kept ? 'kept file' : decision.identical[s] ? 'identical copy' : 'near-duplicate';
                    const name = displayName(docs.paths[d]!);
                    const ref = groups.reference[g]!;
                    const apart = d !== ref && isSeparated(saved.separated, ref, d);
                    return (
                      <li key={s} className={`keep-row keep-row--${out ? 'ignored' : role === ROLE_KEEP ? 'keep' : role === ROLE_REMOVE ? 'remove' : 'review'}`}>
                        {role === ROLE_KEEP ? (
                          <span className="keep-row__kept" aria-label={`Kept: ${name}`}>
                            ★
                          </span>
                        ) : (
                          <input type="checkbox" checked={role === ROLE_REMOVE} disabled={out} aria-label={`Remove ${name}`} onChange={(e) => toggle(d, e.target.checked)} />
                        )}{' '}
                        <PathName path={docs.paths[d]!} maxChars={70} />{' '}
                        <span className="keep-row__role">{out ? 'ignored' : role === ROLE_KEEP ? 'keep' : role === ROLE_REMOVE ? 'remove' : 'review'}</span>{' '}
                        <span className="ss-muted">
                          {match} · {REASON_LABELS[decision.reason[s]!]} · {formatSize(docs.sizes[d]!)}
                          {time(d) && ` · ${time(d)}`}
                        </span>{' '}
                        {(saved.ignored.has(d) || !out) && (
                          <button type="button" className="ss-link-button" aria-pressed={saved.ignored.has(d)} aria-label={`Not a duplicate: ${name}`} onClick={() => toggleIgnored(d)}>
                            {saved.ignored.has(d) ? 'Is a duplicate after all' : 'Not a duplicate'}
                          </button>
                        )}{' '}
                        {d !== ref && !saved.ignored.has(d) && (
                          <button
                            type="button"
                            className="ss-link-button"
                            aria-pressed={apart}
                            aria-label={`Not a duplicate of ${displayName(docs.paths[ref]!)}: ${name}`}
                            onClick={() => marksStore.setSeparated(toggleSeparated(saved.separated, ref, d))}
                          >
                            {apart ? 'Is a duplicate of the reference after all' : 'Not a duplicate of the reference'}
                          </button>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </fieldset>
            );
          })}
        </div>
      </div>
      {listed.length === 0 && <p className="ss-muted">No group matches the filters.</p>}
    </div>
  );
}
