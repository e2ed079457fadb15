// The sample corpus is never scanned into a corpus the person saved (#22).
import { describe, expect, it } from 'vitest';
import { canOfferSample } from '../../../src/app/sample-offer.ts';

const empty = { status: 'ready', documentCount: 0, interrupted: null } as const;

describe('canOfferSample', () => {
  it('offers the sample when storage holds nothing, or cannot be used', () => {
    expect(canOfferSample(empty)).toBe(true);
    expect(canOfferSample({ ...empty, status: 'off' })).toBe(true);
  });

  it('never while a saved corpus may still appear, or once it holds documents', () => {
    expect(canOfferSample({ ...empty, status: 'starting' })).toBe(false);
    expect(canOfferSample({ ...empty, status: 'restoring' })).toBe(false);
    expect(canOfferSample({ ...empty, documentCount: 3 })).toBe(false);
    expect(canOfferSample({ ...empty, status: 'error', documentCount: 3 })).toBe(false);
  });

  it('never beside an interrupted scan the person may resume', () => {
    expect(canOfferSample({ ...empty, interrupted: { id: 1, label: 'notes', committed: 2, total: 9, storageFull: false, cancelled: true, sync: false } })).toBe(false);
  });
});
