/**
 * DOM helpers for aligned scrolling: which text offset is at the top of a pane, and scrolling a pane so
 * a given text offset sits at a given height. Panes hold `.ss-pair-chunk` blocks with `data-start`.
 */
import { chunkIndexOf } from './diff-segments.ts';

interface CaretDocument {
  caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null;
  caretRangeFromPoint?: (x: number, y: number) => Range | null;
}

function caretAt(x: number, y: number): { node: Node; offset: number } | null {
  const doc = document as unknown as CaretDocument;
  if (doc.caretPositionFromPoint) {
    const p = doc.caretPositionFromPoint(x, y);
    return p ? { node: p.offsetNode, offset: p.offset } : null;
  }
  const r = doc.caretRangeFromPoint?.(x, y);
  return r ? { node: r.startContainer, offset: r.startOffset } : null;
}

/** The text offset at the top-left of `pane` and its height below the pane's top, or null. */
export function offsetAtTop(pane: HTMLElement): { offset: number; y: number } | null {
  const box = pane.getBoundingClientRect();
  const style = getComputedStyle(pane);
  const x = box.left + parseFloat(style.paddingLeft) + 2;
  const y = box.top + Math.max(4, parseFloat(style.paddingTop) - pane.scrollTop) + 4;
  const caret = caretAt(x, y);
  if (!caret || !pane.contains(caret.node) || caret.node.nodeType !== Node.TEXT_NODE) return null;
  const chunk = caret.node.parentElement?.closest<HTMLElement>('.ss-pair-chunk');
  if (!chunk) return null;
  let offset = Number(chunk.dataset.start);
  const walker = document.createTreeWalker(chunk, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n && n !== caret.node; n = walker.nextNode()) offset += (n as Text).length;
  return { offset: offset + caret.offset, y: y - box.top };
}

/** Scrolls `pane` so that text offset `offset` is `y` pixels below its top; false if it cannot. */
export function scrollOffsetTo(pane: HTMLElement, starts: Uint32Array, offset: number, y: number): boolean {
  const lo = chunkIndexOf(starts, offset);
  const chunk = pane.querySelectorAll<HTMLElement>('.ss-pair-chunk')[lo];
  if (!chunk) return false;
  let left = offset - starts[lo];
  const walker = document.createTreeWalker(chunk, NodeFilter.SHOW_TEXT);
  let node = walker.nextNode() as Text | null;
  while (node && left > node.length) {
    left -= node.length;
    node = walker.nextNode() as Text | null;
  }
  if (!node) return false;
  const range = document.createRange();
  range.setStart(node, Math.min(left, node.length));
  range.collapse(true);
  const rect = range.getClientRects()[0] ?? range.getBoundingClientRect();
  pane.scrollTop += rect.top - pane.getBoundingClientRect().top - y;
  return true;
}
