import { v5 as uuidV5, v7 as uuidV7 } from 'uuid';

/** Fixed namespace for Herald's derived ids. Changing it would re-key every device: never do. */
const HERALD_NAMESPACE = '6f1f3a52-5c0e-4c43-9d0b-6a0a4e1c2b7d';

/**
 * A device id is derived from (project, token) so that two concurrent
 * registrations of one token produce one device.
 */
export function deviceIdFor(projectId: string, token: string): string {
  return uuidV5(`device\u0000${projectId}\u0000${token}`, HERALD_NAMESPACE);
}

/** A topic id is derived from (project, name), so creating a topic twice is harmless. */
export function topicIdFor(projectId: string, name: string): string {
  return uuidV5(`topic\u0000${projectId}\u0000${name}`, HERALD_NAMESPACE);
}

/** Time-ordered unique id for events and notifications. */
export function newId(): string {
  return uuidV7();
}

/** Deterministic, so a fan-out that restarts produces the same batches and senders can skip repeats. */
export function deliveryBatchId(notificationId: string, provider: string, sequence: number): string {
  return `${notificationId}:${provider}:${sequence}`;
}
