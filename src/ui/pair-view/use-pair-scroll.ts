/** The pair view's two panes in step: scrolling kept aligned, Previous/Next change, the opening scroll. */
import { useCallback, useEffect, useMemo, useRef, type UIEvent } from 'react';
import type { DiffResult } from '../../core/text/diff-runs.ts';
import { chunkIndexOf, mapOffset, sharedPassageStart, syncedScrollTop } from './diff-segments.ts';
import { offsetAtTop, scrollOffsetTo } from './text-position.ts';

/**
 * Scrolling for the panes of a pair whose diff is `done` (null while pending): `startsA`/`startsB` are
 * the panes' block starts; `contained` opens B at the passage it shares with A.
 */
export function usePairScroll(done: DiffResult | null, startsA: Uint32Array, startsB: Uint32Array, contained: boolean) {
  const paneA = useRef<HTMLPreElement>(null);
  const paneB = useRef<HTMLPreElement>(null);
  // The pane the user is scrolling leads; the echo scroll event of the follower is ignored.
  const leader = useRef<HTMLPreElement | null>(null);
  // Where a contained pair's shared passage starts in B (0 otherwise): set once the diff is known.
  const sharedFloor = useRef(0);

  // The text at the top of the pane being scrolled is brought to the top of the other pane (matched
  // through the diff's unchanged runs); before the diff is known, the relative position is kept.
  const onScroll = useCallback((event: UIEvent<HTMLPreElement>) => {
    const source = event.currentTarget;
    if (leader.current !== null && leader.current !== source) return;
    leader.current = source;
    const fromA = source === paneA.current;
    const target = fromA ? paneB.current : paneA.current;
    if (target) {
      const top = done ? offsetAtTop(source) : null;
      const aligned =
        done !== null &&
        top !== null &&
        scrollOffsetTo(
          target,
          fromA ? startsB : startsA,
          // A contained pair's excerpt lies no earlier in the whole than their shared passage (its first
          // words alone may align with an earlier place in the whole).
          fromA ? Math.max(sharedFloor.current, mapOffset(done.alignA, done.alignB, top.offset)) : mapOffset(done.alignB, done.alignA, top.offset),
          top.y,
        );
      if (!aligned) {
        target.scrollTop = syncedScrollTop(
          source.scrollTop,
          source.scrollHeight,
          source.clientHeight,
          target.scrollHeight,
          target.clientHeight,
        );
      }
    }
    requestAnimationFrame(() => {
      requestAnimationFrame(() => {
        if (leader.current === source) leader.current = null;
      });
    });
  }, [done, startsA, startsB]);

  const anchors = useMemo(() => done?.changes ?? new Uint32Array(0), [done]);
  // The change last jumped to, valid while the left pane has not been scrolled since.
  const lastJump = useRef<{ offset: number; scrollTop: number } | null>(null);
  const jump = (direction: 1 | -1) => {
    const pane = paneA.current;
    if (!pane || anchors.length === 0) return;
    const base =
      lastJump.current && lastJump.current.scrollTop === pane.scrollTop
        ? lastJump.current.offset
        : (offsetAtTop(pane)?.offset ?? 0);
    let i = -1;
    if (direction > 0) {
      for (let k = 0; k < anchors.length; k++) if (anchors[k] > base) { i = k; break; }
    } else {
      for (let k = anchors.length - 1; k >= 0; k--) if (anchors[k] < base) { i = k; break; }
    }
    if (i < 0) return;
    leader.current = null;
    scrollOffsetTo(pane, startsA, anchors[i], 48);
    lastJump.current = { offset: anchors[i], scrollTop: pane.scrollTop };
  };

  // The blocks holding the first difference are always laid out: a skipped block (content-visibility)
  // has a placeholder height, and scrolling to a place inside it would land beside the difference.
  // A contained pair opens at the passage of B shared with A; other pairs at their first difference.
  const sharedAt = useMemo(() => (done && contained ? sharedPassageStart(done.bLengths, done.bKinds) : -1), [done, contained]);
  sharedFloor.current = Math.max(0, sharedAt);
  const first = useMemo(() => {
    if (sharedAt >= 0) return { chunkA: 0, chunkB: chunkIndexOf(startsB, sharedAt) };
    if (!done || anchors.length === 0) return null;
    const offsetB = mapOffset(done.alignA, done.alignB, anchors[0]);
    return { chunkA: chunkIndexOf(startsA, anchors[0]), chunkB: chunkIndexOf(startsB, offsetB) };
  }, [done, anchors, startsA, startsB, sharedAt]);

  // When a pair's diff arrives, the first difference is brought into view (once per diff: scrolling
  // afterwards is the person's). Pane A leads; pane B follows through onScroll's alignment.
  const scrolledFor = useRef<unknown>(null);
  useEffect(() => {
    const pane = paneA.current;
    if (!done || !pane || scrolledFor.current === done) return;
    scrolledFor.current = done;
    const target = sharedAt >= 0 ? { pane: paneB.current, starts: startsB, offset: sharedAt } : { pane, starts: startsA, offset: anchors[0] };
    if (!target.pane || target.offset === undefined) return;
    // Blocks just above the target get laid out once they are scrolled near (content-visibility), which
    // moves the target: scroll again over the next few frames (each rAF sees the layout of the frame before).
    let frame = 0;
    const settle = (tries: number) => {
      leader.current = null;
      if (!scrollOffsetTo(target.pane!, target.starts, target.offset!, 48)) return;
      if (target.pane === pane) lastJump.current = { offset: target.offset!, scrollTop: pane.scrollTop };
      if (tries > 0) frame = requestAnimationFrame(() => settle(tries - 1));
    };
    settle(6);
    return () => cancelAnimationFrame(frame);
  }, [done, anchors, startsA, startsB, sharedAt]);

  return { paneA, paneB, onScroll, jump, anchors, first };
}
