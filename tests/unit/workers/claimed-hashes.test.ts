import { describe, expect, it } from 'vitest';
import { claimHash, createClaimBuffer } from '../../../src/workers/claimed-hashes.ts';

describe('claimHash', () => {
  it('claims a 64-bit hash once; hashes sharing one half stay distinct', () => {
    const buffer = createClaimBuffer(10);
    expect(claimHash(buffer, 1, 2)).toBe(true);
    expect(claimHash(buffer, 1, 2)).toBe(false);
    expect(claimHash(buffer, 1, 3)).toBe(true);
    expect(claimHash(buffer, 0xffffffff, 2)).toBe(true);
    expect(claimHash(buffer, 0xffffffff, 2)).toBe(false);
  });

  it('holds many hashes with collisions on slots, each claimed exactly once', () => {
    const buffer = createClaimBuffer(5000);
    let first = 0;
    for (let round = 0; round < 2; round++) for (let i = 0; i < 5000; i++) if (claimHash(buffer, i * 2654435761, i & 7)) first++;
    expect(first).toBe(5000);
  });

  it('never refuses when the table is full (the caller then fingerprints)', () => {
    const buffer = new SharedArrayBuffer(4 * 3 * 4);
    for (let i = 0; i < 4; i++) expect(claimHash(buffer, i, i)).toBe(true);
    expect(claimHash(buffer, 99, 99)).toBe(true);
  });
});
