/** The marks list's filters (kind, distance, Jaccard, size) and order (group order, or most space freed first). */
import { useId, useState } from 'react';
import { parseSize } from '../../core/documents/exclusions.ts';
import type { GroupFilter, GroupSort } from '../../core/keep/keep-marks.ts';

export interface KeepFiltersProps {
  filter: GroupFilter;
  sort: GroupSort;
  onChange: (filter: GroupFilter, sort: GroupSort) => void;
}

/** A number field's value: null when empty or not a number in [min, max]. */
function numberOrNull(text: string, min: number, max: number): number | null {
  const t = text.trim();
  if (t === '' || !/^\d*\.?\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= min && n <= max ? n : null;
}

export function KeepFilters({ filter, sort, onChange }: KeepFiltersProps) {
  const id = useId();
  const [size, setSize] = useState(filter.minSize === null ? '' : String(filter.minSize));
  const sizeValue = size.trim() === '' ? null : parseSize(size);
  return (
    <div className="keep-filters" role="group" aria-label="Filter and order the groups">
      <div className="ss-field">
        <label htmlFor={`${id}-kind`}>Show groups</label>
        <select id={`${id}-kind`} className="ss-select" value={filter.kind} onChange={(e) => onChange({ ...filter, kind: e.target.value as GroupFilter['kind'] }, sort)}>
          <option value="all">all groups</option>
          <option value="identical">identical copies only</option>
          <option value="near">groups with near-duplicates</option>
        </select>
      </div>
      <div className="ss-field">
        <label htmlFor={`${id}-distance`}>Distance at most (bits)</label>
        <input
          id={`${id}-distance`}
          className="ss-input"
          inputMode="numeric"
          defaultValue={filter.maxDistance ?? ''}
          onChange={(e) => onChange({ ...filter, maxDistance: numberOrNull(e.target.value, 0, 64) }, sort)}
        />
      </div>
      <div className="ss-field">
        <label htmlFor={`${id}-jaccard`}>Jaccard at least</label>
        <input
          id={`${id}-jaccard`}
          className="ss-input"
          inputMode="decimal"
          defaultValue={filter.minJaccard ?? ''}
          onChange={(e) => onChange({ ...filter, minJaccard: numberOrNull(e.target.value, 0, 1) }, sort)}
        />
      </div>
      <div className="ss-field">
        <label htmlFor={`${id}-size`}>A file of at least (bytes, 10k, 5MB)</label>
        <input
          id={`${id}-size`}
          className="ss-input"
          value={size}
          aria-invalid={sizeValue === null && size.trim() !== ''}
          onChange={(e) => {
            setSize(e.target.value);
            const v = e.target.value.trim() === '' ? null : parseSize(e.target.value);
            if (v !== null || e.target.value.trim() === '') onChange({ ...filter, minSize: v }, sort);
          }}
        />
      </div>
      <div className="ss-field">
        <label htmlFor={`${id}-sort`}>Order groups by</label>
        <select id={`${id}-sort`} className="ss-select" value={sort} onChange={(e) => onChange(filter, e.target.value as GroupSort)}>
          <option value="group">group order</option>
          <option value="reclaimable">most space freed first</option>
        </select>
      </div>
    </div>
  );
}
