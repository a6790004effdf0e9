import { ADMIN_COLLECTIONS } from '../collections.ts';
import { driverDb, type Store } from '../store-handle.ts';
import { VersionedDocuments, type VersionedHead } from './versioned-documents.ts';

/** A template of a project: its name and how many versions it has had (versioned-documents.ts). */
export type TemplateHead = VersionedHead;

/** One immutable version of a template's content (as saved; libs/templates reads it). */
export interface TemplateVersion {
  /** `<template id>@<version>` */
  _id: string;
  template_id: string;
  project_id: string;
  version: number;
  content: Record<string, unknown>;
  created_at: Date;
}

/**
 * The `templates` and `template_versions` admin collections (the API writes
 * and reads them; a send copies the version it uses into its
 * NotificationRequested, so delivery and replays never read them). Every
 * query names the project.
 */
export class TemplateQueries extends VersionedDocuments<'template_id', 'content', TemplateVersion> {
  constructor(store: Store) {
    super(driverDb(store), { heads: ADMIN_COLLECTIONS.templates, versions: ADMIN_COLLECTIONS.templateVersions }, { parent: 'template_id', payload: 'content' });
  }
}
