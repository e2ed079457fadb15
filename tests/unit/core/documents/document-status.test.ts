import { describe, expect, it } from 'vitest';
import { skipMessage } from '../../../../src/core/documents/document-status.ts';

describe('skip messages', () => {
  it('names a permission error as one, not as a file that moved', () => {
    for (const code of ['EACCES', 'EPERM', 'NotAllowedError']) {
      const message = skipMessage('unreadable', code);
      expect(message).toMatch(/permission denied/i);
      expect(message).not.toMatch(/moved, deleted or locked/);
    }
    expect(skipMessage('unreadable', 'ENOENT')).toMatch(/moved, deleted or locked/);
  });
});
