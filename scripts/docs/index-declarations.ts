// Where the store's indexes are declared, gathered for the indexes table.
// Imported from the packages' public entries, so a declaration moving inside
// a package does not break the page's generation.
import { ADMIN_INDEXES, FERRETDB_INDEXES } from '@herald/mongo';
import { COUNTER_INDEXES, deliveryLedgerProjection, devicesProjection, notificationReportsProjection, notificationsProjection, READ_MODELS, topicsProjection, type AnyProjection } from '@herald/read-models';
import type { CollectionIndexes } from './index-reference.ts';

export const INDEXES_PAGE = 'docs/internals/indexes.md';

/** Every read model's projection: a read model missing here fails the staleness test. */
export const PROJECTIONS: readonly AnyProjection[] = [devicesProjection, topicsProjection, notificationsProjection, deliveryLedgerProjection, notificationReportsProjection];

/** Read models named in READ_MODELS that PROJECTIONS leaves out. */
export function missingReadModels(): string[] {
  const listed = new Set<string>(PROJECTIONS.map((projection) => projection.name));
  return Object.values(READ_MODELS).filter((name) => !listed.has(name));
}

/** The read models' collections (and their counters'), then the admin collections. */
export function declaredIndexes(): CollectionIndexes[] {
  const readModels = PROJECTIONS.flatMap((projection): CollectionIndexes[] => [
    { collection: projection.name, declaredIn: `\`${projection.name}\` read model (libs/read-models)`, indexes: projection.indexes },
    ...(projection.counts === undefined ? [] : [{ collection: `${projection.name}_counts`, declaredIn: '`COUNTER_INDEXES` (libs/read-models)', indexes: COUNTER_INDEXES }]),
  ]);
  const admin = Object.entries(ADMIN_INDEXES).map(([collection, indexes]): CollectionIndexes => ({ collection, declaredIn: '`ADMIN_INDEXES` (libs/mongo)', indexes }));
  return [...readModels, ...admin];
}

export { FERRETDB_INDEXES };
