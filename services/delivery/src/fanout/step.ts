import { cutBatches, providerFor, type AudienceRow, type CutLimits, type PerProvider, type PlannedBatch } from './batcher.ts';

/** How far a fan-out got after its last planned step (what progress.ts stores, without the in-flight batches). */
export interface FanoutState {
  /** The last step planned (its batches recorded before they were published); -1: none yet. */
  step: number;
  /** Every audience device with an id up to this one is in a planned batch; absent: none yet. */
  after?: string | undefined;
  /** The next free sequence number per provider. */
  sequence: PerProvider;
  /** Devices in planned batches, per provider. */
  targeted: PerProvider;
  /** The last planned step read the end of the audience: nothing follows it. */
  exhausted: boolean;
}

export const INITIAL_STATE: FanoutState = { step: -1, sequence: { apns: 0, fcm: 0 }, targeted: { apns: 0, fcm: 0 }, exhausted: false };

export interface StepOptions extends CutLimits {
  /** Rows one step reads; a page shorter than this is the end of the audience. */
  pageSize: number;
}

export interface StepResult {
  state: FanoutState;
  batches: PlannedBatch[];
  /** No further step: announce the dispatch once these batches are out. */
  done: boolean;
}

/**
 * One step of a fan-out (pure): the next page of the audience (rows with
 * ids past `state.after`, in id order, at most `pageSize`) in, its batches
 * and the state after it out. The same state and page always give the same
 * batches, so a step can be planned, recorded, and replayed.
 */
export function stepFanout(state: FanoutState, page: readonly AudienceRow[], options: StepOptions): StepResult {
  if (page.length > options.pageSize) throw new RangeError(`a page holds at most ${options.pageSize} rows, got ${page.length}`);
  const { batches, next } = cutBatches(page, state.sequence, options);
  const targeted = { ...state.targeted };
  for (const row of page) targeted[providerFor(row.platform)] += 1;
  const exhausted = page.length < options.pageSize;
  const after = page.at(-1)?._id ?? state.after;
  return { state: { step: state.step + 1, ...(after === undefined ? {} : { after }), sequence: next, targeted, exhausted }, batches, done: exhausted };
}

/**
 * Which work topics a step's batches go to (pure): a fan-out whose whole
 * audience fitted in its first step is a small send and takes the express
 * lane, so it never queues behind the batches of a campaign; every other
 * step takes the campaign lane. Decided from the step's end state alone, so
 * a replayed step goes where it went the first time.
 */
export function laneFor(state: Pick<FanoutState, 'step' | 'exhausted'>): 'express' | 'campaign' {
  return state.step === 0 && state.exhausted ? 'express' : 'campaign';
}

/** What a stored progress says about one step's work item. */
export interface RecordedProgress extends FanoutState {
  dispatched: boolean;
  /** The event id of the work item that planned step `step`: only that record replays it. */
  planned_by?: string | undefined;
}

export type StepDecision =
  /** Read the next page and plan step `n` from this state. */
  | { kind: 'plan'; state: FanoutState }
  /** Step `n` was planned (and maybe partly published) before: publish its recorded batches again, then go on. */
  | { kind: 'replay'; state: FanoutState }
  /** Queue nothing more; announce what was planned. */
  | { kind: 'announce'; targeted: PerProvider; batches: PerProvider; stopped: boolean }
  /** A redelivered step whose progress has moved on, or one of a finished fan-out. */
  | { kind: 'skip'; reason: 'done-before' | 'moved-on' | 'duplicate' | 'ahead' };

/**
 * What the work item for step `n` does, given the recorded progress (pure).
 * Step 0 is the NotificationRequested; steps ≥ 1 are FanoutStep records;
 * `itemId` is the work item's event id.
 * A stopped request queues nothing more: one too old to send (a push hours
 * late is worse than none, and a reset group must not resend history), or
 * one its client cancelled.
 */
export function decideStep(progress: RecordedProgress | null, n: number, itemId: string, stopped: boolean): StepDecision {
  const state = progress ?? { ...INITIAL_STATE, dispatched: false };
  const announce = (): StepDecision => ({ kind: 'announce', targeted: state.targeted, batches: state.sequence, stopped });
  // The request is redelivered after the dispatch: say it again (a lost announcement must not stay lost).
  if (state.dispatched) return n === 0 || n === state.step ? announce() : { kind: 'skip', reason: 'done-before' };
  if (state.step > n) return { kind: 'skip', reason: 'moved-on' };
  if (stopped) return announce();
  // The same record again (a retry, or redelivered after a crash or rebalance) replays its step. Another
  // record for the step is the continuation a replay of the step before published: the step is in hand.
  if (state.step === n) return state.planned_by === itemId ? { kind: 'replay', state } : { kind: 'skip', reason: 'duplicate' };
  if (state.step === n - 1) return { kind: 'plan', state };
  return { kind: 'skip', reason: 'ahead' };
}
