import type { AdminStore, Project } from '@herald/admin';

/**
 * A project setting read at most every 10 s per project: a send or a
 * fan-out step costs no store read for it. The default pace (`herald
 * projects pace`) reaches new sends within 10 s (sends in flight keep the
 * pace they started with); the budget (`herald projects budget`) reaches
 * the steps of sends in flight within 10 s.
 */
export function projectSetting<T>(admins: Pick<AdminStore, 'findProject'>, pick: (project: Project) => T | undefined, now: () => number = Date.now): (projectId: string) => Promise<T | undefined> {
  const cache = new Map<string, { value: T | undefined; at: number }>();
  return async (projectId) => {
    const cached = cache.get(projectId);
    if (cached !== undefined && now() - cached.at < 10_000) return cached.value;
    const project = await admins.findProject(projectId);
    const value = project === null ? undefined : pick(project);
    if (cache.size > 10_000) cache.clear();
    cache.set(projectId, { value, at: now() });
    return value;
  };
}
