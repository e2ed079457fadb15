import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { GroupList } from '../../../src/ui/groups/GroupList.tsx';
import { formatSize } from '../../../src/ui/shared/format-size.ts';

describe('formatSize', () => {
  it('writes sizes as a file manager does, and nothing for an unknown size', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(820)).toBe('820 B');
    expect(formatSize(12_345)).toBe('12 KB');
    expect(formatSize(3_400_000)).toBe('3.4 MB');
    expect(formatSize(999_999)).toBe('1.0 MB');
    expect(formatSize(Number.NaN)).toBe('');
  });
});

describe('GroupList', () => {
  it('heads its columns: document, size, distance, estimate, Jaccard', () => {
    const table = {
      count: 1,
      offsets: Int32Array.from([0, 2]),
      members: Int32Array.from([0, 1]),
      reference: Int32Array.from([0]),
      groupOf: Int32Array.from([0, 0]),
      distanceToReference: Uint8Array.from([0, 3]),
      jaccardToReference: Float32Array.from([1, 0.9]),
    };
    const html = renderToStaticMarkup(
      createElement(GroupList, { table, paths: ['a.txt', 'b.txt'], sizes: [12_345, 12_000], selectedSlot: null, onOpenPair: () => undefined }),
    );
    const columns = /<div class="ss-groups-columns" aria-hidden="true">(.*?)<\/div>/.exec(html)?.[1] ?? '';
    expect(columns.replace(/<[^>]+>/g, '|').split('|').filter(Boolean)).toEqual(['Document', 'size', 'distance', 'estimate', 'Jaccard']);
  });
});
