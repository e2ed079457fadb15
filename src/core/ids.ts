/**
 * What a document number means: a position in a scan's docs (`DocId`) or a row id in the saved corpus
 * (`StorageId`). Brands cost nothing at run time and stop passing one where the other is expected.
 */

/** Index of a document in the current scan or corpus (dense, 0-based). */
export type DocId = number & { readonly __brand: 'DocId' };

/** Id of a document's row in the saved corpus (stable across reloads; not a position). */
export type StorageId = number & { readonly __brand: 'StorageId' };

/** Storage id per position, kept as a plain typed array: the brand is on the array, not per element. */
export type StorageIds = Uint32Array & { readonly __ids: 'storage' };

/** The storage id of a document that is not saved. */
export const NO_ID = 0xffffffff as StorageId;
