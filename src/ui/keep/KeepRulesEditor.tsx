/** The ordered keep rules: add, move up or down, remove; protected folders; whether near-duplicates are marked too. */
import { useId, useState } from 'react';
import { KEEP_RULE_KINDS, type KeepRuleKind, type KeepRules } from '../../core/keep/keep-rules.ts';
import { REASON_LABELS } from './keep-labels.ts';

export interface KeepRulesEditorProps {
  rules: KeepRules;
  onChange: (next: KeepRules) => void;
}

export function KeepRulesEditor({ rules, onChange }: KeepRulesEditorProps) {
  const id = useId();
  const unused = KEEP_RULE_KINDS.filter((k) => !rules.order.includes(k));
  const [adding, setAdding] = useState<KeepRuleKind | ''>('');
  const pick: KeepRuleKind | undefined = adding !== '' && unused.includes(adding) ? adding : unused[0];
  const [folders, setFolders] = useState(rules.protectedFolders.join('\n'));
  const [foldersFor, setFoldersFor] = useState(rules.protectedFolders);
  if (foldersFor !== rules.protectedFolders) {
    setFoldersFor(rules.protectedFolders);
    setFolders(rules.protectedFolders.join('\n'));
  }
  const move = (i: number, by: number) => {
    const order = [...rules.order];
    [order[i], order[i + by]] = [order[i + by]!, order[i]!];
    onChange({ ...rules, order });
  };
  return (
    <div className="keep-rules">
      <h3 className="keep-rules__title">Keep rules</h3>
      <p className="ss-muted">
        In each group the file the first rule prefers is kept (a tie goes to the next rule, then to the group’s
        reference, then to path order).
      </p>
      <ol aria-label="Keep rules" className="keep-rules__list">
        {rules.order.map((kind, i) => (
          <li key={kind}>
            <span>{REASON_LABELS[kind]}</span>{' '}
            <button type="button" className="ss-button" disabled={i === 0} aria-label={`Move ${REASON_LABELS[kind]} up`} onClick={() => move(i, -1)}>
              ↑
            </button>
            <button type="button" className="ss-button" disabled={i === rules.order.length - 1} aria-label={`Move ${REASON_LABELS[kind]} down`} onClick={() => move(i, 1)}>
              ↓
            </button>
            <button type="button" className="ss-button" aria-label={`Remove rule ${REASON_LABELS[kind]}`} onClick={() => onChange({ ...rules, order: rules.order.filter((k) => k !== kind) })}>
              ×
            </button>
          </li>
        ))}
        <li className="ss-muted">{rules.order.length === 0 ? 'the group’s reference (no rule added yet)' : 'then the group’s reference, then path order'}</li>
      </ol>
      {unused.length > 0 && (
        <div className="keep-rules__add">
          <label htmlFor={`${id}-add`}>Add a keep rule</label>{' '}
          <select id={`${id}-add`} value={pick ?? ''} onChange={(e) => setAdding(e.target.value as KeepRuleKind)}>
            {unused.map((k) => (
              <option key={k} value={k}>
                {REASON_LABELS[k]}
              </option>
            ))}
          </select>{' '}
          <button type="button" className="ss-button" onClick={() => pick && onChange({ ...rules, order: [...rules.order, pick] })}>
            Add rule
          </button>
        </div>
      )}
      <div className="keep-rules__folders">
        <label htmlFor={`${id}-folders`}>Protected folders (one per line; everything under them is kept)</label>
        <textarea
          id={`${id}-folders`}
          rows={2}
          value={folders}
          onChange={(e) => setFolders(e.target.value)}
          onBlur={() => {
            const list = folders.split('\n').map((f) => f.trim()).filter((f) => f !== '');
            const order = list.length > 0 && !rules.order.includes('protected') ? (['protected', ...rules.order] as KeepRuleKind[]) : rules.order;
            onChange({ ...rules, protectedFolders: list, order });
          }}
        />
      </div>
      <label className="keep-rules__near">
        <input type="checkbox" checked={rules.markNear} onChange={(e) => onChange({ ...rules, markNear: e.target.checked })} /> Also mark
        near-duplicates (different texts) for removal
      </label>
    </div>
  );
}
