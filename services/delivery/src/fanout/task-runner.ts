import { createEvent, deliveryBatchId, TOPICS, type DeliveryBatchV2, type FanoutMessageV2, type FanoutTaskV2, type Provider } from '@herald/events';
import type { ConsumedEvent, Outgoing } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { BATCH_BYTE_BUDGET, BATCH_SIZE, type PlannedBatch } from './batcher.ts';
import { decideTask, headStartWait, paceAfter, planPace, planStep, progressOf, type PacePlan, type TaskProgress } from './task-step.ts';
import type { Steering } from '../control/delivery-controls.ts';
import { budgeted, workLane } from '../control/budget.ts';
import type { ProjectBudgets } from '../control/project-budgets.ts';
import { estimateAudience, readPage, type IndexReader } from '@herald/audience-index';
import { gatePage, heldBatches, keepsCaps, type CapsDeps } from './caps-step.ts';
import { baseMessage, contentBytes, contentMakerFor, contentsOfRows, withContents, type ContentMaker, type DeviceContent } from './content-step.ts';
import { heldOutReports, splitContents, splitMakerFor, splitRows, type SplitMaker } from './split-step.ts';

export const WORK_TOPIC = {
  campaign: { apns: TOPICS.deliveriesApns, fcm: TOPICS.deliveriesFcm, webpush: TOPICS.deliveriesWebpush, hms: TOPICS.deliveriesHms },
  express: { apns: TOPICS.deliveriesApnsExpress, fcm: TOPICS.deliveriesFcmExpress, webpush: TOPICS.deliveriesWebpushExpress, hms: TOPICS.deliveriesHmsExpress },
} as const;
export const DEFAULT_STEP_DEVICES = 10_000;
/** The first step reads less, so the first batch leaves after one short read whatever the audience's size. */
export const FIRST_STEP_DEVICES = 1_000;
/**
 * A chunk whose every task waits (paced before its slot, paused) is held at
 * most this long, then its tasks are queued again on their partition: the
 * partition is never blocked longer than this for another send's task.
 */
export const DEFAULT_HOLD_MS = 250;

export interface TaskRunnerDeps {
  index: IndexReader;
  /** Resolves once the index has applied `partition` up to `offset`. */
  waitFor(partition: number, offset: number): Promise<void>;
  isCancelled(notificationId: string): boolean;
  /** Pause and pace set in flight (herald.delivery-control); default: none. */
  steering?(notificationId: string): Steering;
  /** Project budgets and provider push-back (control/project-budgets.ts); default: none. */
  budgets?: Pick<ProjectBudgets, 'load' | 'decide' | 'spend'>;
  /** Resolves at the next control change: a hold ends early on a pause, resume or new rate. */
  changed?(): Promise<void>;
  /** Longest a chunk of tasks that are all waiting (paced, paused) is held before they are queued again. */
  holdMs?: number;
  /** End offsets of every device-events partition now (a forwarded task's `wait_for`). */
  deviceEnds(): Promise<readonly number[]>;
  /** The message of a task whose first step this process did not see: read from that step's record. */
  loadMessage(partition: number, offset: number): Promise<FanoutMessageV2>;
  partitionOf: (deviceId: string) => number;
  logger: Logger;
  maxAgeMs: number;
  stepDevices?: number;
  /** Devices per batch (tests use fewer). */
  batchSize?: number;
  now?: () => number;
  /** Frequency caps and quiet hours of campaign sends (caps-step.ts); absent: not applied. */
  caps?: CapsDeps;
}

type Task = FanoutTaskV2['data'];

/**
 * The co-partitioned group's task member: runs one step of each FanoutTask
 * against this instance's index of the task's partition and returns what
 * the step produces — its DeliveryBatch records, then its continuation on
 * the same partition, a forward to where a token's holder lives, or the
 * partition's NotificationDispatched. The consumer commits them with the
 * task's offset in one transaction, so a step happens once.
 */
export function taskHandler(deps: TaskRunnerDeps) {
  const messages = new Map<string, FanoutMessageV2>();
  const messageOf = async (task: Task, partition: number): Promise<FanoutMessageV2> => {
    if (task.message !== undefined) return task.message;
    const key = `${task.fanout_id}|${partition}`;
    let message = messages.get(key);
    if (message === undefined) {
      deps.logger.info({ fanout_id: task.fanout_id, partition, offset: task.message_at }, "reading a task's message from its first step");
      message = await deps.loadMessage(partition, task.message_at!);
    }
    messages.delete(key);
    messages.set(key, message);
    // The most recent few thousand campaigns' messages; older ones are read again if ever needed.
    if (messages.size > 2_000) messages.delete(messages.keys().next().value!);
    return message;
  };
  // Per notification, its content maker (null: a plain literal send): a template is compiled, and each distinct render made, once per process.
  const makers = new Map<string, ContentMaker | null>();
  const makerOf = (notificationId: string, message: FanoutMessageV2): ContentMaker | undefined => {
    let maker = makers.get(notificationId);
    if (maker === undefined) {
      maker = contentMakerFor(message) ?? null;
      makers.set(notificationId, maker);
      if (makers.size > 200) makers.delete(makers.keys().next().value!);
    }
    return maker ?? undefined;
  };
  // Per A/B send, its plan and variants' content makers (null: not an A/B send).
  const splits = new Map<string, SplitMaker | null>();
  const splitOf = (task: Task, message: FanoutMessageV2): SplitMaker | undefined => {
    const key = task.fanout_id;
    let split = splits.get(key);
    if (split === undefined) {
      split = splitMakerFor(message) ?? null;
      splits.set(key, split);
      if (splits.size > 200) splits.delete(splits.keys().next().value!);
    }
    return split ?? undefined;
  };

  const now = deps.now ?? Date.now;
  const steering = (id: string): Steering => deps.steering?.(id) ?? { paused: false };
  const limits = { first: FIRST_STEP_DEVICES, step: deps.stepDevices ?? DEFAULT_STEP_DEVICES };
  const paceOf = (task: Task, record: ConsumedEvent): PacePlan => {
    if (deps.isCancelled(task.notification_id)) return { kind: 'run', limit: 0 };
    const plan = planPace(task, steering(task.notification_id), now(), limits);
    const headStart = plan.kind === 'run' && plan.paced === undefined ? headStartWait(task, now()) : 0;
    if (headStart > 0) return { kind: 'wait', ms: headStart };
    return budgeted(plan, deps.budgets?.decide(record.event.project_id, record.partition, task, now()));
  };

  return async (records: readonly ConsumedEvent[]): Promise<Outgoing[]> => {
    const out: Outgoing[] = [];
    await deps.budgets?.load(records.map((record) => record.event.project_id));
    await holdWhileAllWait(records);
    for (const record of records) {
      if (record.event.type !== 'FanoutTask') continue;
      const task = record.event.data;
      const context = { project_id: record.event.project_id, correlation_id: record.event.correlation_id };
      await deps.waitFor(record.partition, task.wait_for);
      const progress = progressOf(task);
      const decision = decideTask(task, now(), deps.maxAgeMs, deps.isCancelled(task.notification_id));
      if (decision.kind === 'stop') {
        deps.logger.info({ notification_id: task.notification_id, partition: task.partition, reason: decision.reason, targeted: progress.targeted }, 'fan-out stopped; nothing more is queued');
        out.push({ event: dispatched(task, progress, context) });
        continue;
      }
      const pace = paceOf(task, record);
      if (pace.kind === 'wait') {
        // Paced before its slot, or paused: queued again as it is (its progress recorded in it), so whoever owns the partition next takes it up.
        out.push({ event: createEvent('FanoutTask', task, context), partition: record.partition });
        continue;
      }
      const message = await messageOf(task, record.partition);
      if (task.step === 0) messages.set(`${task.fanout_id}|${record.partition}`, message);
      const limit = pace.limit;
      // An A/B send: each device's variant (one hash), the holdout reported apart, the remainder left for the winner (split-step.ts).
      const split = splitOf(task, message);
      // A template send (or one with localisations): each device's content, from its values, carried by the page read; a plain literal send skips this.
      const maker = split === undefined ? makerOf(task.notification_id, message) : undefined;
      const read = readPage(deps.index, {
        partition: record.partition,
        projectId: record.event.project_id,
        audience: task.audience,
        zones: task.slot === undefined ? undefined : { zones: task.slot.zones, includeUnset: task.slot.include_unset },
        after: progress.after,
        limit,
        partitionOf: deps.partitionOf,
        registeredBefore: task.wait_for,
        withValues: maker !== undefined || split?.templated === true,
      });
      const envelope = envelopeBytes(task, message, context);
      const parts = split === undefined ? undefined : splitRows(split, task.notification_id, read.rows);
      const page = parts === undefined ? read : { ...read, rows: parts.send };
      const contents =
        split !== undefined ? splitContents(split, deps.index, record.partition, page.rows, parts!.variantOf) : maker === undefined ? undefined : contentsOfRows(maker, deps.index, record.partition, page.rows);
      const limits = { maxDevices: deps.batchSize ?? BATCH_SIZE, maxDeviceBytes: BATCH_BYTE_BUDGET - envelope, ...(contents === undefined ? {} : { extraBytes: contentBytes(contents) }) };
      const ratePerMinute = pace.kind === 'run' ? pace.paced?.ratePerMinute : undefined;
      // Campaign sends keep the project's frequency cap and quiet hours: held devices get their own batches and reports (caps-step.ts).
      const gate = deps.caps !== undefined && pace.kind !== 'expire' && keepsCaps(task, progress.step === 0 && page.exhausted) ? await gatePage(deps.caps, task, record.event.project_id, page) : undefined;
      const sendable = gate?.page ?? page;
      let plan = planStep(progress, sendable, limits);
      if (parts !== undefined && parts.heldOut.length > 0) {
        const held = heldOutReports(parts.heldOut, plan.next, limits, (batch) => batchEvent(task, message, batch, context), context);
        out.push(...held.out);
        plan = { ...plan, next: held.next };
      }
      if (gate !== undefined && gate.held.length > 0) {
        const held = await heldBatches(deps.caps!, gate.held, plan.next, limits, (batch) => batchEvent(task, message, batch, context, ratePerMinute, contents), context);
        out.push(...held.out);
        plan = { ...plan, next: held.next };
      }
      const lane = workLane(task, plan.lane, pace.kind === 'expire');
      if (pace.kind !== 'expire') deps.budgets?.spend(record.event.project_id, record.partition, sendable.rows.length, now());
      for (const batch of plan.batches) out.push({ event: batchEvent(task, message, batch, context, ratePerMinute, contents), topic: WORK_TOPIC[lane][batch.provider] });
      // A campaign (more than one step) says how large this partition's audience is, for its progress and ETA:
      // at its second step, so the count (about 10 ms per 170,000 devices) never delays a first push.
      if (task.step === 1 && task.forwarded !== true && task.slot === undefined) {
        const devices = estimateAudience(deps.index, { partition: record.partition, projectId: record.event.project_id, audience: task.audience });
        out.push({ event: createEvent('AudienceEstimated', { notification_id: task.notification_id, partition: task.partition, partitions: task.partitions, devices }, context) });
      }
      const nextPace = paceAfter(task, pace, sendable.rows.length);
      // A holder on a partition this fan-out has a task on is found there (by its token): hand on only the others.
      const uncovered = page.forwards.filter((holder) => task.covers !== undefined && !task.covers.includes(deps.partitionOf(holder.device_id)));
      const pending = [...(task.forwards ?? []), ...uncovered];
      if (!plan.done) {
        const { message: _stored, ...rest } = task;
        const next: Task = { ...rest, ...stateOf(plan.next), message_at: task.message_at ?? record.offset, ...(pending.length === 0 ? {} : { forwards: pending }), ...(nextPace === undefined ? {} : { pace: nextPace }) };
        out.push({ event: createEvent('FanoutTask', next, context), partition: record.partition });
      } else if (pending.length > 0) {
        out.push(await forward(deps, task, message, plan.next, pending, context));
      } else {
        out.push({ event: dispatched(task, plan.next, context) });
      }
    }
    return out;
  };

  /**
   * When every task of the chunk waits (nothing would move), waits for the
   * earliest slot (at most `holdMs`, ended early by a control change) before
   * deciding, instead of queueing them again at once: a paused or slow
   * campaign costs a few records a second per partition, not a busy loop.
   */
  async function holdWhileAllWait(records: readonly ConsumedEvent[]): Promise<void> {
    let earliest = Number.POSITIVE_INFINITY;
    for (const record of records) {
      if (record.event.type !== 'FanoutTask') continue;
      const pace = paceOf(record.event.data, record);
      if (pace.kind !== 'wait') return;
      earliest = Math.min(earliest, pace.ms);
    }
    if (earliest === Number.POSITIVE_INFINITY && !records.some((record) => record.event.type === 'FanoutTask')) return;
    const ms = Math.min(earliest, deps.holdMs ?? DEFAULT_HOLD_MS);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), ...(deps.changed === undefined ? [] : [deps.changed()])]);
    clearTimeout(timer);
  }
}

function stateOf(progress: TaskProgress): Pick<Task, 'step' | 'after' | 'sequence' | 'targeted'> {
  return { step: progress.step, ...(progress.after === undefined ? {} : { after: progress.after }), sequence: progress.sequence, targeted: progress.targeted };
}

/**
 * Hands the task on to the partition where the next token holders live (a
 * device that took a token in a refresh keeps its id, so its events are
 * elsewhere): that task checks them there, then goes on to the next, and
 * the last announces the dispatch of this task's partition.
 */
async function forward(deps: TaskRunnerDeps, task: Task, message: FanoutMessageV2, progress: TaskProgress, pending: ReadonlyArray<{ device_id: string; token: string }>, context: { project_id: string; correlation_id?: string | undefined }): Promise<Outgoing> {
  const home = deps.partitionOf(pending[0]!.device_id);
  const here = pending.filter((holder) => deps.partitionOf(holder.device_id) === home);
  const rest = pending.filter((holder) => deps.partitionOf(holder.device_id) !== home);
  const ends = await deps.deviceEnds();
  const data: Task = {
    notification_id: task.notification_id,
    fanout_id: task.fanout_id,
    partition: task.partition,
    partitions: task.partitions,
    step: 0,
    requested_at: task.requested_at,
    wait_for: ends[home] ?? 0,
    audience: { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [], held_tokens: Object.fromEntries(here.map((holder) => [holder.device_id, holder.token])) },
    message,
    sequence: progress.sequence,
    targeted: progress.targeted,
    forwarded: true,
    ...(task.slot === undefined ? {} : { slot: task.slot }),
    ...(task.deadline === undefined ? {} : { deadline: task.deadline }),
    ...(task.lane === undefined ? {} : { lane: task.lane }),
    ...(task.split_phase === undefined ? {} : { split_phase: task.split_phase }),
    ...(rest.length === 0 ? {} : { forwards: rest }),
  };
  return { event: createEvent('FanoutTask', data, context), partition: home };
}

function dispatched(task: Task, progress: TaskProgress, context: { project_id: string; correlation_id?: string | undefined }) {
  // An A/B send with a test share dispatches twice: its test, then its remainder after the decision (the notification is sent once both are).
  const slot = task.split_phase !== undefined ? { slot: task.split_phase, slots: 2 } : task.slot === undefined ? {} : { slot: task.slot.at, slots: task.slot.count };
  return createEvent(
    'NotificationDispatched',
    { notification_id: task.notification_id, targeted: progress.targeted, batches: progress.sequence, partition: task.partition, partitions: task.partitions, ...slot },
    context,
  );
}

function batchEvent(task: Task, message: FanoutMessageV2, batch: PlannedBatch, context: { project_id: string; correlation_id?: string | undefined }, ratePerMinute?: number, contents?: ReadonlyMap<string, DeviceContent>): DeliveryBatchV2 {
  return createEvent(
    'DeliveryBatch',
    {
      batch_id: deliveryBatchId(task.fanout_id, batch.provider, task.partition, batch.sequence),
      notification_id: task.notification_id,
      provider: batch.provider,
      sequence: batch.sequence,
      message: message.template === undefined && message.localizations === undefined && message.split === undefined ? message : baseMessage(message),
      ...(task.deadline === undefined ? {} : { expires_at: task.deadline }),
      ...(ratePerMinute === undefined ? {} : { rate_per_minute: Math.max(1, Math.round(ratePerMinute)) }),
      ...(contents === undefined ? { devices: batch.devices } : withContents(batch, contents)),
    },
    context,
  );
}

/** Encoded bytes of a batch with no device: what the byte budget must leave room for. */
function envelopeBytes(task: Task, message: FanoutMessageV2, context: { project_id: string; correlation_id?: string | undefined }): number {
  const provider: Provider = 'apns';
  // The largest rate stands for whatever pace the batch will carry.
  return Buffer.byteLength(JSON.stringify(batchEvent(task, message, { provider, sequence: Number.MAX_SAFE_INTEGER, devices: [] }, context, Number.MAX_SAFE_INTEGER)));
}
