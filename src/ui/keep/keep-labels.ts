/** What the keep rules and reasons are called on screen. */
import type { KeepReason } from '../../core/keep/keep-rules.ts';

export const REASON_LABELS: Record<KeepReason, string> = {
  protected: 'protected folder',
  newest: 'newest',
  oldest: 'oldest',
  'shortest-path': 'shortest path',
  'longest-path': 'longest path',
  largest: 'largest',
  smallest: 'smallest',
  reference: 'group reference',
  'path-order': 'path order',
  'near-duplicate': 'near-duplicate: a different text',
  'copy-of-review': 'identical copy of a near-duplicate left to review',
  ignored: 'not a duplicate (ignored)',
  marked: 'marked by you',
  unmarked: 'unmarked by you',
  'kept-in-another-group': 'kept in another group',
};
