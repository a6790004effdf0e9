/**
 * What every read-model document has. Each read model's own document type
 * lives in its own module here, next to its evolve and indexes.
 */

/** Where a document's state came from: the last Kafka record applied to it. */
export interface Position {
  partition: number;
  offset: number;
}

export interface ProjectedDocument {
  _id: string;
  project_id: string;
  position: Position;
}
