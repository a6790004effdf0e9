/** The fields of a device the audience predicate reads. */
export interface AudienceDevice {
  _id: string;
  project_id: string;
  status: 'active' | 'inactive';
  token: string;
  topics: readonly string[];
  metadata: Readonly<Record<string, string>>;
  external_id?: string | undefined;
  timezone?: string | undefined;
  platform?: string | undefined;
  /** BCP 47, canonical (locale.ts). */
  locale?: string | undefined;
}
