import type { AudienceIndex } from './audience-index.ts';

/** What reading an audience page needs of the index (the candidate plans and the page reader share it). */
export type IndexReader = Pick<AudienceIndex, 'ordinals' | 'allOrdinals' | 'ordinalOf' | 'rowsAt' | 'alias' | 'countUnder' | 'deviceCount'>;
