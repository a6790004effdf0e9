/**
 * The device quota of a project (pure). A project holds at most `quota`
 * devices; devices registered without its API key fill at most
 * `anonymousPercent` of it, so strangers registering junk never take the
 * room the project's key registers into. Devices the project deleted count
 * toward neither (the caller counts only the others).
 */
export interface QuotaState {
  projectId: string;
  /** Devices the project holds (deleted ones left out). */
  held: number;
  /** Of those, the ones registered without its key. */
  anonymousHeld: number;
  quota: number;
  anonymousPercent: number;
}

export function anonymousQuotaOf(quota: number, anonymousPercent: number): number {
  return Math.floor((quota * anonymousPercent) / 100);
}

/** Why a new device may not register (the 400 message), or undefined when it may. */
export function quotaProblem(state: QuotaState, anonymous: boolean): string | undefined {
  if (state.held >= state.quota) {
    return `project_id ${state.projectId} holds its quota of ${state.quota} devices (PROJECT_DEVICE_QUOTA, or herald projects device-quota): no new device can register`;
  }
  const anonymousQuota = anonymousQuotaOf(state.quota, state.anonymousPercent);
  if (anonymous && state.anonymousHeld >= anonymousQuota) {
    return (
      `project_id ${state.projectId} holds ${anonymousQuota} devices registered without its API key, its share for them ` +
      '(PROJECT_ANONYMOUS_DEVICE_PERCENT of its device quota): register with the API key, or delete devices it does not want'
    );
  }
  return undefined;
}

/** A device the project deleted: it no longer counts toward the quota, and registering it again makes it a new device for it. */
export function isDeleted(device: { deactivation?: { reason: string } | undefined } | undefined): boolean {
  return device?.deactivation?.reason === 'Unregistered';
}
