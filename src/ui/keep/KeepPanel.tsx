/**
 * "Keep and clean up": the keep rules, each group's documents with their role (kept, marked for removal,
 * to review) and a checkbox per row to change a mark, actions per group and for all (keep one and mark
 * the rest, invert), "not a duplicate", filters and order, exclusions, what the marks would free, and the
 * plan export. The marks, the ignore list and the exclusions are saved (use-keep-marks.ts).
 */
import { useMemo, useState } from 'react';
import type { DuplicateRelation } from '../../core/groups/duplicate-relation.ts';
import { decideKeep, unmatchedFolders } from '../../core/keep/keep-rules.ts';
import {
  applyMarkAction,
  leftOut,
  NO_GROUP_FILTER,
  separatedMembers,
  visibleGroups,
  type GroupFilter,
  type GroupSort,
  type MarkAction,
} from '../../core/keep/keep-marks.ts';
import { planRootOf, planRows, type PlanDocs, type PlanRelation } from '../../core/export/plan.ts';
import type { KeepDecision } from '../../core/keep/keep-rules.ts';
import { keptFolderRoots } from '../../corpus/kept-folders.ts';
import type { ScanDocs } from '../../scan/scan-result.ts';
import { formatSize } from '../shared/format-size.ts';
import { KeepRulesEditor } from './KeepRulesEditor.tsx';
import { useKeepRules } from './use-keep-rules.ts';
import { useModifiedTimes, withoutTime, type ReadFileTimes } from './use-modified-times.ts';
import { hashMemberBytes } from './plan-bytes.ts';
import type { KeepMarksStore } from '../../corpus/keep-marks-store.ts';
import type { KeepRulesStore } from '../../corpus/keep-rules-store.ts';
import { useKeepMarks } from './use-keep-marks.ts';
import { KeepFilters } from './KeepFilters.tsx';
import { KeepExclusions } from './KeepExclusions.tsx';
import { QuarantineMove } from './QuarantineMove.tsx';
import { KeepGroupList } from './KeepGroupList.tsx';
import './keep.css';

export interface KeepPanelProps {
  relation: DuplicateRelation;
  docs: ScanDocs;
  /** Saves a file (the app's download); `ext` is the file's extension. */
  onSave: (file: Blob, stem: string, ext: 'csv' | 'json') => string;
  /** Builds the plan's file (CSV or JSON, with `root`) off the main thread. */
  buildPlan: BuildPlan;
  /** Reads files' modification times off the main thread. */
  readTimes: ReadFileTimes;
  /** The person's marks, "not a duplicate" lists and exclusions (shared with the pair view and the counts). */
  marksStore: KeepMarksStore;
  /** The page's keep rules (the corpus saves them). */
  rulesStore: KeepRulesStore;
}

/** The plan's file and row count from the decision (the export worker's `plan`). */
export type BuildPlan = (relation: PlanRelation, docs: PlanDocs, decision: KeepDecision, format: 'csv' | 'json', root: string | null) => Promise<{ blob: Blob; rows: number }>;

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function KeepPanel({ relation, docs: scanned, onSave, buildPlan, readTimes, marksStore, rulesStore }: KeepPanelProps) {
  const [rules, setRules] = useKeepRules(rulesStore);
  const modified = useModifiedTimes(scanned, relation.groups.members, readTimes, rules.order.includes('newest') || rules.order.includes('oldest'));
  const docs = useMemo(() => ({ ...scanned, ...(modified ? { modified } : {}) }), [scanned, modified]);
  // The person's own marks and "not a duplicate" list by document (saved by path), and the exclusions.
  const saved = useKeepMarks(marksStore);
  const { marks } = saved;
  const [status, setStatus] = useState('');
  const [marksOpen, setMarksOpen] = useState(false);
  const [filter, setFilter] = useState<GroupFilter>(NO_GROUP_FILTER);
  const [sort, setSort] = useState<GroupSort>('group');
  const { groups } = relation;
  // Left out of the plan: documents marked not a duplicate, excluded ones, and members separated from their reference.
  const ignored = useMemo(() => {
    const out = leftOut(saved.ignored, saved.exclusions, scanned.paths, scanned.sizes, groups.members);
    for (const d of separatedMembers(groups, saved.separated)) out.add(d);
    return out;
  }, [saved.ignored, saved.separated, saved.exclusions, scanned, groups]);
  const decision = useMemo(() => decideKeep(relation, docs, rules, marks, ignored), [relation, docs, rules, marks, ignored]);
  const byTime = rules.order.includes('newest') || rules.order.includes('oldest');
  const timeless = useMemo(() => (byTime ? withoutTime(relation.groups.members, docs) : 0), [byTime, relation, docs]);
  // A protected folder no file lies under protects nothing: said, as the CLI's --protect refuses it.
  const unmatched = useMemo(() => (rules.order.includes('protected') ? unmatchedFolders(scanned.paths, rules.protectedFolders) : []), [scanned.paths, rules]);
  const act = (action: MarkAction) => marksStore.setMarks(applyMarkAction(marks, action, groups, decision, ignored));
  const [planName, setPlanName] = useState<string | null>(null);
  /** The plan as the marks stand, with the hash of each file's bytes as read now (bytes not kept: through `reopen`, when given). */
  const currentPlan = async (reopen?: (path: string) => Promise<Blob>) =>
    planRows(relation, { ...docs, bytesHashes: await hashMemberBytes(scanned, relation.groups.members, reopen) }, decision);
  const single = scanned.roots?.length === 1 ? scanned.roots[0]! : null;
  const rootHandle = single?.kind === 'directory' ? (single as FileSystemDirectoryHandle) : null;
  const save = async (ext: 'csv' | 'json') => {
    setStatus('Reading the files to record the hash of their bytes…');
    const bytesHashes = await hashMemberBytes(scanned, relation.groups.members);
    // Only the columns the plan reads cross to the export worker, which builds its rows and text.
    const { groups: g, classOf, graphOffsets, graphNeighbour, graphEdge, verified } = relation;
    const planDocs: PlanDocs = { paths: docs.paths, sizes: docs.sizes, hashHi: docs.hashHi, hashLo: docs.hashLo, bytesHashes, ...(docs.modified ? { modified: docs.modified } : {}) };
    // The folder's root where a CLI result opened beside it was made (the CLI's plan records it); else none.
    const root = planRootOf(await keptFolderRoots(), docs.paths);
    const plan = await buildPlan({ groups: g, classOf, graphOffsets, graphNeighbour, graphEdge, verified }, planDocs, decision, ext, root);
    const name = onSave(plan.blob, 'simsift-plan', ext);
    setPlanName(name);
    setStatus(`Downloading the plan (${count(plan.rows, 'row', 'rows')}) as ${name}: the browser saves it where it saves downloads.`);
  };
  // The list is computed only while it is open (a task over 100 ms after a large scan otherwise).
  const listed = useMemo(() => (marksOpen ? visibleGroups(relation, docs.sizes, decision, filter, sort) : []), [marksOpen, relation, docs.sizes, decision, filter, sort]);
  return (
    <section className="ss-panel keep-panel" aria-label="Keep and clean up">
      <h2 className="ss-panel-title">Keep and clean up</h2>
      <KeepRulesEditor rules={rules} onChange={setRules} />
      {timeless > 0 && (
        <p className="keep-panel__note">
          {count(timeless, 'grouped file has', 'grouped files have')} no modification time here (its scan did not record one, or it is not
          a file): “newest” and “oldest” never prefer {timeless === 1 ? 'it' : 'them'}, and the next rule decides.
        </p>
      )}
      {unmatched.length > 0 && (
        <p role="alert" className="keep-panel__error">
          {unmatched.map((f) => `“${f}”`).join(', ')} {unmatched.length === 1 ? 'matches' : 'match'} no file: nothing is protected by{' '}
          {unmatched.length === 1 ? 'it' : 'them'}, and no plan is made or moved until it is fixed. Give a folder as the paths show it (e.g. <bdi>{docs.paths[0]?.split('/').slice(0, -1).join('/') || 'folder'}</bdi>).
        </p>
      )}
      <KeepExclusions exclusions={saved.exclusions} onChange={marksStore.setExclusions} />
      <p role="status" className="keep-panel__summary">
        {count(decision.removeFiles, 'file', 'files')} marked for removal would free {formatSize(decision.removeBytes) || '0 B'} (
        {decision.removeBytes.toLocaleString('en')} bytes).
      </p>
      {/* Closed at first: a checkbox per row is a Tab stop each, and the page's other controls stay a few Tabs apart. */}
      {/* Its rows are made only while it is open: 50 groups of rows made with the results were a task over 100 ms. */}
      <details className="keep-panel__marks" onToggle={(e) => setMarksOpen(e.currentTarget.open)}>
        <summary>Show each group’s marks</summary>
        {marksOpen && (
        <>
        <KeepFilters filter={filter} sort={sort} onChange={(f, o) => { setFilter(f); setSort(o); }} />
        <div className="ss-export" role="group" aria-label="Marks in every group">
          <button type="button" className="ss-button" onClick={() => act({ kind: 'keep-one', group: 'all' })}>Keep one, mark the rest (every group)</button>
          <button type="button" className="ss-button" onClick={() => act({ kind: 'invert', group: 'all' })}>Invert marks (every group)</button>
          <button type="button" className="ss-button" onClick={() => act({ kind: 'clear', group: 'all' })}>Clear my marks</button>
        </div>
        <p role="status" className="keep-panel__count">
          {count(listed.length, 'group', 'groups')} listed{listed.length < groups.count ? ` of ${groups.count.toLocaleString('en')}` : ''}: scroll the list to reach each one.
        </p>
        <KeepGroupList listed={listed} relation={relation} decision={decision} docs={docs} saved={saved} marksStore={marksStore} onAction={act} />
        </>
        )}
      </details>
      <div className="ss-export" role="group" aria-label="Export plan">
        <button type="button" className="ss-button" disabled={groups.count === 0 || unmatched.length > 0} onClick={() => void save('csv')}>
          Export plan CSV
        </button>
        <button type="button" className="ss-button" disabled={groups.count === 0 || unmatched.length > 0} onClick={() => void save('json')}>
          Export plan JSON
        </button>
        <span role="status">{status}</span>
      </div>
      <QuarantineMove folderName={docs.paths[0]?.split('/')[0] ?? 'FOLDER'} scanRoot={rootHandle} scanned={scanned} planRows={currentPlan} planName={planName} marked={unmatched.length > 0 ? 0 : decision.removeFiles} />
    </section>
  );
}
