/**
 * An index a read model's queries need, in Herald's own terms: the store
 * (libs/mongo) creates it, all of it on MongoDB, the part its SQL reads
 * through on the local FerretDB. Kept free of the driver's types so the
 * read models load without it.
 */
export interface IndexDefinition {
  key: Readonly<Record<string, 1 | -1>>;
  name: string;
  unique?: boolean;
  partialFilterExpression?: Readonly<Record<string, unknown>>;
}
