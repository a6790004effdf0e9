import type { AnyBulkWriteOperation } from 'mongodb';

/** One upserting replaceOne per document, by `_id`. */
export function replacements<T extends { _id: string }>(docs: readonly T[]): Array<AnyBulkWriteOperation<T>> {
  return docs.map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } }) as unknown as AnyBulkWriteOperation<T>);
}
