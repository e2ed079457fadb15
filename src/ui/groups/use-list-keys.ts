/** The group list's keyboard and focus: the active row, arrows, Page Up/Down, Home/End, Enter. */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { stepRow, type GroupRows } from './group-view.ts';

/** What the listbox element needs from the list's keyboard handling. */
export interface ListKeys {
  active: number;
  setActive: (row: number) => void;
  onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  onPointerDown: () => void;
  onFocus: () => void;
}

/**
 * Keyboard navigation over `rows` (member rows only: headings are stepped over). `scrollTo` brings a row
 * into view, `open` opens its pair, `page` is the rows a Page Up/Down moves.
 */
export function useListKeys(rows: GroupRows, page: number, scrollTo: (row: number) => void, open: (row: number) => void): ListKeys {
  const [active, setActive] = useState(-1);
  const focusByPointer = useRef(false);
  // A new view starts at its first member row.
  useEffect(() => setActive(stepRow(rows, 0, 0)), [rows]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const from = active < 0 ? 0 : active;
    let next: number | null = null;
    if (e.key === 'ArrowDown') next = stepRow(rows, from, active < 0 ? 0 : 1);
    else if (e.key === 'ArrowUp') next = stepRow(rows, from, -1);
    else if (e.key === 'PageDown') next = stepRow(rows, from, page);
    else if (e.key === 'PageUp') next = stepRow(rows, from, -page);
    else if (e.key === 'Home') next = stepRow(rows, 0, 0);
    else if (e.key === 'End') next = stepRow(rows, rows.count - 1, 0, -1);
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(active);
      return;
    }
    if (next === null) return;
    e.preventDefault();
    if (next < 0) return;
    setActive(next);
    scrollTo(next);
  };
  return {
    active,
    setActive,
    onKeyDown,
    onPointerDown: () => (focusByPointer.current = true),
    onFocus: () => {
      // Tabbing in shows the active row. A click focuses the list too, between its mousedown and
      // mouseup: scrolling then would move another row under the pointer and lose the click.
      if (!focusByPointer.current && active >= 0) scrollTo(active);
      focusByPointer.current = false;
    },
  };
}
