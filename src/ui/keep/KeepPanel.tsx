/**
 * "Keep and clean up": the keep rules, each group's documents with their role (kept, marked for removal,
 * to review) and a checkbox per row to change a mark, what the marks would free, and the plan export.
 * Moving files is the command line's job (`simsift apply`), which checks each file again first.
 */
import { useMemo, useState } from 'react';
import type { DuplicateRelation } from '../../core/groups/duplicate-relation.ts';
import { decideKeep, ROLE_KEEP, ROLE_REMOVE, type KeepDocs } from '../../core/keep/keep-rules.ts';
import { planCsv, planJson, planRows, type PlanDocs } from '../../core/export/plan.ts';
import { PathName } from '../shared/PathName.tsx';
import { displayName } from '../shared/display-name.ts';
import { formatSize } from '../shared/format-size.ts';
import { KeepRulesEditor } from './KeepRulesEditor.tsx';
import { REASON_LABELS } from './keep-labels.ts';
import { useKeepRules } from './use-keep-rules.ts';
import { useModifiedTimes, withoutTime, type ReadFileTimes } from './use-modified-times.ts';
import './keep.css';

export interface KeepPanelProps {
  relation: DuplicateRelation;
  docs: PlanDocs & KeepDocs & { count: number; files: readonly Blob[]; modified?: Float64Array };
  /** Saves a text file (the app's download); `ext` is the file's extension. */
  onSave: (text: string, stem: string, ext: 'csv' | 'json') => string;
  /** Reads files' modification times off the main thread. */
  readTimes: ReadFileTimes;
}

/** Groups listed with their rows at most (the plan always holds them all). */
const SHOWN_GROUPS = 50;

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function KeepPanel({ relation, docs: scanned, onSave, readTimes }: KeepPanelProps) {
  const [rules, setRules] = useKeepRules();
  const modified = useModifiedTimes(scanned, relation.groups.members, readTimes, rules.order.includes('newest') || rules.order.includes('oldest'));
  const docs = useMemo(() => ({ ...scanned, ...(modified ? { modified } : {}) }), [scanned, modified]);
  // The person's own marks by document; a new set of documents starts without any.
  const [marks, setMarks] = useState<Map<number, boolean>>(() => new Map());
  const [marksFor, setMarksFor] = useState(scanned.paths);
  if (marksFor !== scanned.paths) {
    setMarksFor(scanned.paths);
    setMarks(new Map());
  }
  const [status, setStatus] = useState('');
  const [marksOpen, setMarksOpen] = useState(false);
  const decision = useMemo(() => decideKeep(relation, docs, rules, marks), [relation, docs, rules, marks]);
  const byTime = rules.order.includes('newest') || rules.order.includes('oldest');
  const timeless = useMemo(() => (byTime ? withoutTime(relation.groups.members, docs) : 0), [byTime, relation, docs]);
  const { groups } = relation;
  const toggle = (d: number, remove: boolean) => setMarks((old) => new Map(old).set(d, remove));
  const save = (ext: 'csv' | 'json') => {
    const rows = planRows(relation, docs, decision);
    const name = onSave(ext === 'csv' ? planCsv(rows) : planJson(rows), 'simsift-plan', ext);
    setStatus(`Saved the plan (${count(rows.length, 'row', 'rows')}) as ${name}.`);
  };
  const root = docs.paths[0]?.split('/')[0] ?? 'FOLDER';
  const shown = Math.min(groups.count, SHOWN_GROUPS);
  const time = (d: number) => {
    const t = docs.modified?.[d] ?? 0;
    return t > 0 ? new Date(t).toISOString().slice(0, 16).replace('T', ' ') : '';
  };
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
      <p role="status" className="keep-panel__summary">
        {count(decision.removeFiles, 'file', 'files')} marked for removal would free {formatSize(decision.removeBytes) || '0 B'} (
        {decision.removeBytes.toLocaleString('en')} bytes).
      </p>
      {/* Closed at first: a checkbox per row is a Tab stop each, and the page's other controls stay a few Tabs apart. */}
      {/* Its rows are made only while it is open: 50 groups of rows made with the results were a task over 100 ms. */}
      <details className="keep-panel__marks" onToggle={(e) => setMarksOpen(e.currentTarget.open)}>
        <summary>Show each group’s marks</summary>
        {marksOpen && (
        <div className="keep-panel__groups" role="group" aria-label="Marks">
          {Array.from({ length: shown }, (_, g) => (
            <fieldset key={g} className="keep-group">
              <legend>
                Group {g + 1}
                {relation.exactGroup[g] ? ' · identical copies' : ' · near-duplicates'}
              </legend>
              <ul>
                {Array.from({ length: groups.offsets[g + 1]! - groups.offsets[g]! }, (_, i) => {
                  const s = groups.offsets[g]! + i;
                  const d = groups.members[s]!;
                  const role = decision.role[s]!;
                  const kept = decision.keeper[g] === d;
                  const match = kept ? 'kept file' : decision.identical[s] ? 'identical copy' : 'near-duplicate';
                  return (
                    <li key={s} className={`keep-row keep-row--${role === ROLE_KEEP ? 'keep' : role === ROLE_REMOVE ? 'remove' : 'review'}`}>
                      {role === ROLE_KEEP ? (
                        <span className="keep-row__kept" aria-label={`Kept: ${displayName(docs.paths[d]!)}`}>
                          ★
                        </span>
                      ) : (
                        <input
                          type="checkbox"
                          checked={role === ROLE_REMOVE}
                          aria-label={`Remove ${displayName(docs.paths[d]!)}`}
                          onChange={(e) => toggle(d, e.target.checked)}
                        />
                      )}{' '}
                      <PathName path={docs.paths[d]!} maxChars={70} />{' '}
                      <span className="keep-row__role">{role === ROLE_KEEP ? 'keep' : role === ROLE_REMOVE ? 'remove' : 'review'}</span>{' '}
                      <span className="ss-muted">
                        {match} · {REASON_LABELS[decision.reason[s]!]} · {formatSize(docs.sizes[d]!)}
                        {time(d) && ` · ${time(d)}`}
                      </span>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          ))}
          {groups.count > shown && <p className="ss-muted">The first {shown} of {count(groups.count, 'group', 'groups')} are listed; the plan holds them all.</p>}
        </div>
        )}
      </details>
      <div className="ss-export" role="group" aria-label="Export plan">
        <button type="button" className="ss-button" disabled={groups.count === 0} onClick={() => save('csv')}>
          Export plan CSV
        </button>
        <button type="button" className="ss-button" disabled={groups.count === 0} onClick={() => save('json')}>
          Export plan JSON
        </button>
        <span role="status">{status}</span>
      </div>
      <p className="ss-muted keep-panel__apply">
        Nothing is moved from here. To move the files marked for removal into a quarantine folder, run, in the folder that
        holds <bdi>{root}</bdi>: <code>npx simsift apply simsift-plan-….json --into QUARANTINE_FOLDER --dry-run</code>, then
        without <code>--dry-run</code>. It moves only files whose contents still match the plan, deletes nothing, and writes
        an undo log (<code>simsift apply --undo LOG</code> puts everything back).
      </p>
    </section>
  );
}

