import { FrequencyCaps } from '@herald/mongo';
import type { CapEntry } from './caps.ts';

export { isDuplicateKey } from '@herald/mongo';

/** What the fan-out step needs of the cap state (a fake in unit tests). */
export interface CapState {
  read(projectId: string, keys: readonly string[]): Promise<Map<string, CapEntry[]>>;
  write(projectId: string, changed: ReadonlyMap<string, CapEntry[]>, now: Date): Promise<void>;
}

/** The frequency caps' stored state (libs/mongo queries/frequency-caps.ts), with the fan-out's entries. */
export class CapStore extends FrequencyCaps<CapEntry> implements CapState {}
