import type { AdminStore, Project } from '@herald/admin';
import { NotFoundError, ValidationError } from '@herald/errors';

/** The zone a project without one is in. */
export const DEFAULT_PROJECT_ZONE = 'UTC';

// An IANA name, not an offset (`+02:00` is a zone to Intl, but no region's: its clocks never change).
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * A zone name the runtime knows, in its usual spelling (`europe/paris` →
 * `Europe/Paris`), or undefined. A name Intl maps to an older alias
 * (`Asia/Kolkata` → `Asia/Calcutta`) is kept as given.
 */
export function canonicalZone(name: string): string | undefined {
  if (!ZONE_NAME.test(name)) return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

const view = (project: Project) => ({ id: project._id, name: project.name, timezone: project.default_timezone ?? DEFAULT_PROJECT_ZONE });

/**
 * The current project's own settings, read and written with its key. The
 * zone is the one `default_timezone` field (also set by `herald projects
 * timezone`): one fact for the console's times and for local-time sends.
 */
export class ProjectService {
  readonly #admin: AdminStore;

  constructor(admin: AdminStore) {
    this.#admin = admin;
  }

  async get(projectId: string) {
    return { data: view(await this.#find(projectId)) };
  }

  async setTimezone(projectId: string, timezone: string) {
    const zone = canonicalZone(timezone);
    if (zone === undefined) throw new ValidationError([`timezone: ${JSON.stringify(timezone.slice(0, 64))} is not an IANA time zone name (e.g. Europe/Paris, UTC)`]);
    if (!(await this.#admin.setDefaultTimezone(projectId, zone))) throw new NotFoundError(`project ${projectId} does not exist`);
    return this.get(projectId);
  }

  async #find(projectId: string): Promise<Project> {
    const project = await this.#admin.findProject(projectId);
    if (project === null) throw new NotFoundError(`project ${projectId} does not exist`);
    return project;
  }
}
