/** Whether the page may offer the bundled sample corpus: never on top of a corpus the person saved. */
import type { PersistenceSnapshot } from '../corpus/corpus-persistence.ts';

/**
 * The sample is scanned like a chosen folder, and a scan appends to the saved corpus: offered while a
 * saved corpus is still being looked for or restored, or holds documents, it would mix the sample into
 * the person's own files (#22). It is offered only once storage is known to hold nothing of theirs.
 */
export function canOfferSample(saved: Pick<PersistenceSnapshot, 'status' | 'documentCount' | 'interrupted'>): boolean {
  if (saved.status === 'starting' || saved.status === 'restoring') return false;
  return saved.documentCount === 0 && saved.interrupted === null;
}
