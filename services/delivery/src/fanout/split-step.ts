import { createEvent, type DeliveryBatchV2, type DeliveryReportedV2, type FanoutMessageV2, type FanoutSplit, type LocaleContentFields } from '@herald/events';
import type { IndexReader, AudienceRow } from '@herald/audience-index';
import type { Outgoing } from '@herald/kafka';
import { assignDevice, type SplitPlan } from '@herald/templates';
import { countOne, cutBatches, providerFor, type CutLimits, type PlannedBatch } from './batcher.ts';
import { contentMakerFor, valuesOfRows, type ContentMaker, type ContentRow, type DeviceContent } from './content-step.ts';
import type { TaskProgress } from './task-step.ts';

type Context = { project_id: string; correlation_id?: string | undefined };

/** The fan-out id of an A/B send's remainder (sent the winner after VariantDecided): its batch ids never meet the test's. */
export const remainderFanoutId = (notificationId: string): string => `${notificationId}#remainder`;
/** The schedule (and held request) of an A/B send's decision at `decide_after`. */
export const decisionScheduleId = (notificationId: string): string => `${notificationId}#decide`;
export const isDecisionSchedule = (scheduleId: string): boolean => scheduleId.endsWith('#decide');

/**
 * An A/B send's per-notification state in the fan-out, made once per
 * notification: the split plan and one content maker per variant (a
 * literal variant's content is one object, sized once; a template variant
 * renders as a template send does).
 */
export interface SplitMaker {
  plan: SplitPlan;
  names: readonly string[];
  /** Set in the remainder's fan-out: the variant every remainder device gets. */
  winner: number | undefined;
  makers: readonly ContentMaker[];
  /** A variant is a template: its devices' values are read (never for literal variants alone). */
  templated: boolean;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

export function splitMakerFor(message: FanoutMessageV2): SplitMaker | undefined {
  const split = message.split;
  if (split === undefined) return undefined;
  const makers = split.variants.map((variant): ContentMaker => {
    if (variant.template !== undefined) {
      const { split: _split, localizations: _localizations, ...base } = message;
      return contentMakerFor({ ...base, template: variant.template }, variant.name)!;
    }
    const content: LocaleContentFields = literalContent(variant, message);
    const made: DeviceContent = { locale: 'default', content, bytes: bytesOf(content), variant: variant.name };
    return { contentOf: () => made };
  });
  const templated = split.variants.some((variant) => variant.template !== undefined);
  return { plan: planOf(split), names: split.variants.map((variant) => variant.name), winner: split.winner, makers, templated };
}

function literalContent(variant: FanoutSplit['variants'][number], message: FanoutMessageV2): LocaleContentFields {
  return {
    title: variant.title ?? message.title,
    body: variant.body ?? message.body,
    ...(variant.link_to === undefined ? (message.link_to === undefined ? {} : { link_to: message.link_to }) : { link_to: variant.link_to }),
    ...(variant.image === undefined ? {} : { image: variant.image }),
    ...(variant.data === undefined ? {} : { data: variant.data }),
  };
}

export const planOf = (split: FanoutSplit): SplitPlan => ({ variants: split.variants.length, holdoutPercent: split.holdout_percent, testPercent: split.test_percent });

/** A page's rows by where they go (pure but for the hash): sent now with their variant, the holdout, or left for later. */
export interface SplitRows<Row> {
  send: Row[];
  variantOf: Map<string, number>;
  heldOut: Row[];
}

/**
 * Splits a page of an A/B send: in the test's fan-out, each device goes to
 * its variant or the holdout, and the remainder is left for the winner; in
 * the remainder's fan-out (a winner is set) only the remainder is sent,
 * with the winner. One hash per device, nothing else.
 */
export function splitRows<Row extends { device_id: string }>(split: Pick<SplitMaker, 'plan' | 'winner'>, notificationId: string, rows: readonly Row[]): SplitRows<Row> {
  const result: SplitRows<Row> = { send: [], variantOf: new Map(), heldOut: [] };
  for (const row of rows) {
    const assignment = assignDevice(split.plan, notificationId, row.device_id);
    if (split.winner !== undefined) {
      if (assignment.kind !== 'remainder') continue;
      result.send.push(row);
      result.variantOf.set(row.device_id, split.winner);
    } else if (assignment.kind === 'variant') {
      result.send.push(row);
      result.variantOf.set(row.device_id, assignment.index);
    } else if (assignment.kind === 'held_out') {
      result.heldOut.push(row);
    }
  }
  return result;
}

/**
 * Each sent device's content, from its variant's maker (each content names
 * its variant, and devices with the same content share one object): literal
 * variants read no device values, template variants the ones the page read
 * carried (or, without them, one range read of the page's rows: read per
 * variant, a variant's devices are scattered over the range, which the
 * index reads one query per row).
 */
export function splitContents(split: SplitMaker, index: Pick<IndexReader, 'rowsAt'>, partition: number, rows: readonly ContentRow[], variantOf: ReadonlyMap<string, number>): Map<string, DeviceContent> {
  const values = split.templated ? valuesOfRows(index, partition, rows) : [];
  const contents = new Map<string, DeviceContent>();
  for (let at = 0; at < rows.length; at += 1) {
    const row = rows[at]!;
    const maker = split.makers[variantOf.get(row.device_id)!]!;
    contents.set(row.device_id, maker.contentOf(values[at] ?? NO_VALUES));
  }
  return contents;
}

const NO_VALUES = { metadata: {} };

/**
 * The holdout's batches, numbered after the step's own and reported
 * `held_out` at once (never queued for a sender): every holdout device is
 * counted as targeted, so the notification finishes with it settled.
 */
export function heldOutReports(rows: readonly AudienceRow[], progress: TaskProgress, limits: CutLimits, batchOf: (batch: PlannedBatch) => DeliveryBatchV2, context: Context): { out: Outgoing[]; next: TaskProgress } {
  if (rows.length === 0) return { out: [], next: progress };
  const cut = cutBatches(rows, progress.sequence, { ...limits, extraBytes: undefined });
  const targeted = { ...progress.targeted };
  for (const row of rows) countOne(targeted, providerFor(row.platform));
  const out = cut.batches.map((planned): Outgoing => {
    const { data } = batchOf(planned);
    const results: DeliveryReportedV2['data']['results'] = data.devices.map((device) => ({ device_id: device.device_id, outcome: 'held_out' }));
    return { event: createEvent('DeliveryReported', { notification_id: data.notification_id, batch_id: data.batch_id, provider: data.provider, results }, context) };
  });
  return { out, next: { ...progress, sequence: cut.next, targeted } };
}
