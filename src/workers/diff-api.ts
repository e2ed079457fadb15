/**
 * The text-diff worker's API: the pair view's word-level comparison of two documents
 * (core/text/document-diff.ts), kept off the main thread because a 1 MB pair takes a while.
 */
import { diffDocuments } from '../core/text/document-diff.ts';

/** The API object the diff worker exposes. */
export const diffApi = {
  diffTexts: diffDocuments,
};

export type DiffApi = typeof diffApi;
