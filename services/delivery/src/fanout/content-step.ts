import type { DeliveryBatchV2, FanoutMessage, FanoutMessageV2, LocaleContentFields } from '@herald/events';
import type { IndexReader } from '@herald/audience-index';
import { compileTemplate, describeProblem, localizeLiteral, NotificationRenderer, type DeviceValues, type RenderResult } from '@herald/templates';
import type { PlannedBatch } from './batcher.ts';

/** What one device gets: content and the locale it was chosen for, or the render error that fails it. */
export type DeviceContent = ({ locale: string; content: LocaleContentFields; bytes: number } | { locale: string; error: string; bytes: number }) & {
  /** An A/B send: the variant the device got (split-step.ts). */
  variant?: string;
};

/**
 * Makes each device's content for one notification: a template send
 * renders (once per locale and device values read: NotificationRenderer's
 * memo), a literal send with localisations lays the device's locale over
 * its fields. Made once per notification and kept (ContentMakers).
 */
export interface ContentMaker {
  contentOf(values: DeviceValues): DeviceContent;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** The batch's own message: what every device gets unless its content says otherwise (the template and localisations stay behind). */
export function baseMessage(message: FanoutMessageV2): FanoutMessage {
  const { template: _template, localizations: _localizations, split: _split, ...base } = message;
  return base;
}

/**
 * The content maker of a message; undefined for a plain literal send, which
 * then costs nothing per device. `variant` (an A/B send's variant name) is
 * set on every content it makes. Devices with the same content share one
 * DeviceContent object (per render result, per locale): nothing is made
 * per device.
 */
export function contentMakerFor(message: FanoutMessageV2, variant?: string): ContentMaker | undefined {
  const named = variant === undefined ? {} : { variant };
  if (message.template !== undefined) {
    const compiled = compileTemplate(message.template.content);
    if (!compiled.ok) {
      // Checked when saved: a template that no longer parses (a library change) fails its devices, each reported.
      const error = compiled.problems.map(describeProblem).join('; ');
      const failed: DeviceContent = { locale: 'default', error, bytes: bytesOf(error), ...named };
      return { contentOf: () => failed };
    }
    const renderer = new NotificationRenderer(compiled.template, message.template.variables);
    // The renderer's memo hands the same result to every device with the same key: its DeviceContent is made (and sized) once.
    const made = new WeakMap<RenderResult, DeviceContent>();
    return {
      contentOf(values) {
        const result = renderer.render(values);
        let content = made.get(result);
        if (content === undefined) made.set(result, (content = deviceContentOf(result, named)));
        return content;
      },
    };
  }
  const { localizations } = message;
  if (localizations === undefined || Object.keys(localizations).length === 0) return undefined;
  const base = { title: message.title, body: message.body };
  const byLocale = new Map<string, DeviceContent>();
  return {
    contentOf(values) {
      const chosen = localizeLiteral(base, localizations, values.locale);
      let known = byLocale.get(chosen.locale);
      if (known === undefined) byLocale.set(chosen.locale, (known = { locale: chosen.locale, content: chosen.content, bytes: bytesOf(chosen.content), ...named }));
      return known;
    },
  };
}

/** A render's DeviceContent: its content, or its problem described (pure). */
export function deviceContentOf(result: RenderResult, named: { variant?: string }): DeviceContent {
  if (!result.ok) {
    const error = describeProblem(result.problem);
    return { locale: result.locale, error, bytes: bytesOf(error), ...named };
  }
  return { locale: result.locale, content: result.content, bytes: bytesOf(result.content), ...named };
}

/** A page's row: the values of its device are on it when the page was read `withValues` (readPage). */
export type ContentRow = { ordinal: number; device_id: string; values?: DeviceValues | undefined };

/**
 * The rows' device values, in order: those the page read carried (the
 * fan-out asks for them), else read from the index in one range read (I/O
 * only in `rowsAt`, the index's in-memory read); never for a plain literal send.
 */
export function valuesOfRows(index: Pick<IndexReader, 'rowsAt'>, partition: number, rows: readonly ContentRow[]): DeviceValues[] {
  if (rows.every((row) => row.values !== undefined)) return rows.map((row) => row.values!);
  return index.rowsAt(partition, rows.map((row) => row.ordinal)).map(deviceValuesOf);
}

/** Each row's content: devices with the same content share one object. */
export function contentsOfRows(maker: ContentMaker, index: Pick<IndexReader, 'rowsAt'>, partition: number, rows: readonly ContentRow[]): Map<string, DeviceContent> {
  const values = valuesOfRows(index, partition, rows);
  const contents = new Map<string, DeviceContent>();
  for (let at = 0; at < rows.length; at += 1) contents.set(rows[at]!.device_id, maker.contentOf(values[at]!));
  return contents;
}

/** The values a template may read of a device row; the row was read a moment ago from the same index: a device gone since (undefined) gets none of its own. */
export function deviceValuesOf(device: ReturnType<IndexReader['rowsAt']>[number]): DeviceValues {
  return { metadata: device?.metadata ?? {}, locale: device?.locale ?? undefined, timezone: device?.timezone ?? undefined };
}

/** Room a device's content may take in its batch (an upper bound: shared contents are stored once). */
export function contentBytes(contents: ReadonlyMap<string, DeviceContent>): (deviceId: string) => number {
  // 40: `"content":NNN,"locale":"…",` beside the device.
  return (deviceId) => (contents.get(deviceId)?.bytes ?? 0) + 40;
}

/** A planned batch's devices with their content index, locale or error, and the distinct contents (pure). */
export function withContents(batch: PlannedBatch, contents: ReadonlyMap<string, DeviceContent>): Pick<DeliveryBatchV2['data'], 'contents' | 'devices'> {
  const distinct: LocaleContentFields[] = [];
  const indexOf = new Map<object, number>();
  const devices = batch.devices.map((device): DeliveryBatchV2['data']['devices'][number] => {
    const made = contents.get(device.device_id);
    if (made === undefined) return device;
    const line: DeliveryBatchV2['data']['devices'][number] = { ...device, locale: made.locale };
    if (made.variant !== undefined) line.variant = made.variant;
    if ('error' in made) {
      line.error = made.error;
      return line;
    }
    let index = indexOf.get(made.content);
    if (index === undefined) {
      index = distinct.length;
      distinct.push(made.content);
      indexOf.set(made.content, index);
    }
    line.content = index;
    return line;
  });
  return { contents: distinct, devices };
}
