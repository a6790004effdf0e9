import { ADMIN_COLLECTIONS } from '../collections.ts';
import { driverDb, type Store } from '../store-handle.ts';
import { VersionedDocuments, type VersionedHead } from './versioned-documents.ts';

/**
 * A saved segment of a project: its name and how many versions it has had
 * (versioned-documents.ts). The id is derived from (project, name)
 * (`segmentIdFor`), so `name` version 3 never means two different filters.
 */
export type SegmentHead = VersionedHead;

/** One immutable version of a segment's filter (a target expression, docs/guides/targets.md). */
export interface SegmentVersion {
  /** `<segment id>@<version>` */
  _id: string;
  segment_id: string;
  project_id: string;
  version: number;
  filter: unknown;
  created_at: Date;
}

/**
 * The `segments` and `segment_versions` admin collections: the API writes
 * and reads them; a send pins the versions it uses in its
 * NotificationRequested, so delivery and replays never read them. Every
 * query names the project.
 */
export class SegmentQueries extends VersionedDocuments<'segment_id', 'filter', SegmentVersion> {
  constructor(store: Store) {
    super(driverDb(store), { heads: ADMIN_COLLECTIONS.segments, versions: ADMIN_COLLECTIONS.segmentVersions }, { parent: 'segment_id', payload: 'filter' });
  }
}
