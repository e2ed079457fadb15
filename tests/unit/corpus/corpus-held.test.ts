import { describe, expect, it } from 'vitest';
import { asRevision, heldTransition, NOTHING_HELD } from '../../../src/corpus/corpus-held.ts';
import type { Held } from '../../../src/corpus/corpus-held.ts';

type H = Held<string, string, string>;
const shown = (base: string, tables: string | null = null): H => ({ settings: 's', revision: asRevision(3), on: { kind: 'shown', base, tables } });

describe('the held corpus', () => {
  it('holds tables only beside a corpus on show, and keeps them when this tab replaces the corpus', () => {
    const none: H = NOTHING_HELD;
    expect(heldTransition(none, { type: 'tables', tables: 't' }).on).toEqual({ kind: 'none' });
    expect(heldTransition(shown('a'), { type: 'tables', tables: 't' }).on).toEqual({ kind: 'shown', base: 'a', tables: 't' });
    expect(heldTransition(shown('a', 't'), { type: 'replaced', base: 'b' }).on).toEqual({ kind: 'shown', base: 'b', tables: 't' });
    expect(heldTransition(none, { type: 'replaced', base: 'b' }).on).toEqual({ kind: 'shown', base: 'b', tables: null });
    expect(heldTransition(shown('a', 't'), { type: 'emptied' })).toEqual({ settings: 's', revision: 3, on: { kind: 'none' } });
  });

  it('takes a revision for a given corpus only while that corpus is on show', () => {
    const held = shown('a');
    expect(heldTransition(held, { type: 'revision', revision: asRevision(5), of: 'b' })).toBe(held);
    expect(heldTransition(held, { type: 'revision', revision: asRevision(5), of: 'a' }).revision).toBe(5);
    expect(heldTransition(held, { type: 'revision', revision: asRevision(6) }).revision).toBe(6);
    // Never read: any stored revision differs from it; a reset keeps the revision, drops settings and corpus.
    expect(NOTHING_HELD.revision).toBeNull();
    expect(heldTransition(held, { type: 'reset' })).toEqual({ settings: null, revision: 3, on: { kind: 'none' } });
  });
});
