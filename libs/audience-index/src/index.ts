export { AudienceIndex, INDEX_FILE, INDEX_FORMAT, type IndexedTopic } from './audience-index.ts';
export type { IndexedDevice } from './index-rows.ts';
export { estimateAudience, readPage, type AudienceRow, type IndexReader, type Page, type PageRequest } from './read-page.ts';
