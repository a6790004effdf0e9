import { createEvent, TOPICS, type DeliveryBatchV2, type DeliveryReportedV2, type FanoutTaskV1 } from '@herald/events';
import { dueKey, type Schedule, type ScheduleStore } from '@herald/mongo';
import type { Outgoing } from '@herald/kafka';
import { countOne, cutBatches, providerFor, type CutLimits, type PlannedBatch } from './batcher.ts';
import type { TaskProgress } from './task-step.ts';
import type { AudienceRow, Page } from '@herald/audience-index';
import { capKey, gateDevices, type CapEntry, type GateDecision } from '../control/caps.ts';
import type { CapState } from '../control/cap-store.ts';

type Task = FanoutTaskV1['data'];
type Context = { project_id: string; correlation_id?: string | undefined };

export interface CapsDeps {
  /** The frequency cap state (`frequency_caps`); only projects with a cap read it. */
  state: CapState;
  /** Deferred batches are held as schedules the scheduler fires at their time. */
  schedules: Pick<ScheduleStore, 'holdReleases'>;
  /** Cap windows and quiet hours are judged by this clock (the scheduler's: tests move it). */
  now(): number;
}

export interface HeldRow {
  row: AudienceRow;
  decision: Exclude<GateDecision, { kind: 'send' }>;
}

/**
 * Whether a step keeps the project's frequency cap and quiet hours: campaign
 * sends only. A send is transactional (bypasses both) when it says so
 * (`priority_lane`), else when its partition task is a small send (its
 * audience fitted the first step: the express lane); a task forwarded to a
 * token's holder is a handful of devices and bypasses them too.
 */
export function keepsCaps(task: Task, express: boolean): boolean {
  if (task.caps === undefined || (task.caps.frequency_cap === undefined && task.caps.quiet_hours === undefined)) return false;
  if (task.forwarded === true) return false;
  if (task.lane !== undefined) return task.lane === 'campaign';
  return !express;
}

/**
 * Splits a page into the devices sent now and those held (capped, deferred,
 * expired), recording the pushes admitted in the cap state before the step
 * commits (a step run again finds them and decides the same).
 */
export async function gatePage(deps: CapsDeps, task: Task, projectId: string, page: Page): Promise<{ page: Page; held: HeldRow[] }> {
  const caps = task.caps!;
  const cap = caps.frequency_cap;
  const now = deps.now();
  const state = cap === undefined ? new Map<string, CapEntry[]>() : await deps.state.read(projectId, page.rows.map((row) => capKey(cap, row)));
  const read = new Map(state);
  const decisions = gateDevices(page.rows, { notificationId: task.notification_id, caps, now, deadline: task.deadline === undefined ? undefined : Date.parse(task.deadline), state });
  // Only the keys the gate touched (a capped user's document is left as it was).
  const touched = new Map([...state].filter(([key, entries]) => read.get(key) !== entries));
  if (cap !== undefined) await deps.state.write(projectId, touched, new Date(now));
  const send: AudienceRow[] = [];
  const held: HeldRow[] = [];
  page.rows.forEach((row, index) => {
    const decision = decisions[index]!;
    if (decision.kind === 'send') send.push(row);
    else held.push({ row, decision });
  });
  return { page: { ...page, rows: send }, held };
}

/**
 * The held devices' batches, numbered after the step's own: capped and
 * expired ones reported at once (with the rule), deferred ones reported
 * `deferred` and held as schedules that queue the same batch (same id) at
 * its time, whose report then replaces the `deferred` lines. Every held
 * device counts as targeted, so the notification finishes once each has
 * its final outcome.
 */
export async function heldBatches(
  deps: CapsDeps,
  held: readonly HeldRow[],
  progress: TaskProgress,
  limits: CutLimits,
  batchOf: (batch: PlannedBatch) => DeliveryBatchV2,
  context: Context,
): Promise<{ out: Outgoing[]; next: TaskProgress }> {
  const groups = new Map<string, HeldRow[]>();
  for (const item of held) {
    const { decision } = item;
    const key = decision.kind === 'deferred' ? `deferred|${decision.until}|${decision.rule}` : `${decision.kind}|${decision.rule}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  let sequence = progress.sequence;
  const targeted = { ...progress.targeted };
  const out: Outgoing[] = [];
  const schedules: Schedule[] = [];
  for (const items of groups.values()) {
    const decision = items[0]!.decision;
    const cut = cutBatches(
      items.map((item) => item.row),
      sequence,
      limits,
    );
    sequence = cut.next;
    for (const item of items) countOne(targeted, providerFor(item.row.platform));
    for (const planned of cut.batches) {
      const batch = batchOf(planned);
      out.push({ event: reportOf(batch, decision, context) });
      if (decision.kind !== 'deferred') continue;
      const until = new Date(decision.until);
      schedules.push({
        _id: batch.data.batch_id,
        notification_id: batch.data.notification_id,
        project_id: context.project_id,
        due_at: until,
        due_key: dueKey(until),
        state: 'pending',
        release: {
          batch: { ...batch.data, deferral: { rule: decision.rule, until: until.toISOString() } },
          topic: RELEASE_TOPIC[batch.data.provider],
          ...(context.correlation_id === undefined ? {} : { correlation_id: context.correlation_id }),
        },
        created_at: new Date(deps.now()),
      });
    }
  }
  await deps.schedules.holdReleases(schedules);
  return { out, next: { ...progress, sequence, targeted } };
}

/** Where a released batch goes: its provider's campaign lane (a deferred push is no small send). */
const RELEASE_TOPIC = { apns: TOPICS.deliveriesApns, fcm: TOPICS.deliveriesFcm, webpush: TOPICS.deliveriesWebpush, hms: TOPICS.deliveriesHms } as const;

const REASONS = { capped: 'FrequencyCap', expired: 'MaxDurationExceeded' } as const;

function reportOf(batch: DeliveryBatchV2, decision: HeldRow['decision'], context: Context): DeliveryReportedV2 {
  const { data } = batch;
  const line = (deviceId: string): DeliveryReportedV2['data']['results'][number] =>
    decision.kind === 'deferred'
      ? { device_id: deviceId, outcome: 'deferred', reason: decision.reason, rule: decision.rule, until: new Date(decision.until).toISOString() }
      : { device_id: deviceId, outcome: decision.kind, reason: REASONS[decision.kind], rule: decision.rule };
  return createEvent('DeliveryReported', { notification_id: data.notification_id, batch_id: data.batch_id, provider: data.provider, results: data.devices.map((device) => line(device.device_id)) }, context);
}
