import type { DeliveryBatchV2, FanoutMessage, FanoutMessageV2, LocaleContentFields } from '@herald/events';
import type { IndexReader } from '@herald/audience-index';
import { compileTemplate, describeProblem, localizeLiteral, NotificationRenderer, type DeviceValues } from '@herald/templates';
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

/** The content maker of a message; undefined for a plain literal send, which then costs nothing per device. */
export function contentMakerFor(message: FanoutMessageV2): ContentMaker | undefined {
  if (message.template !== undefined) {
    const compiled = compileTemplate(message.template.content);
    if (!compiled.ok) {
      // Checked when saved: a template that no longer parses (a library change) fails its devices, each reported.
      const error = compiled.problems.map(describeProblem).join('; ');
      return { contentOf: () => ({ locale: 'default', error, bytes: bytesOf(error) }) };
    }
    const renderer = new NotificationRenderer(compiled.template, message.template.variables);
    const sized = new WeakMap<object, number>();
    return {
      contentOf(values) {
        const result = renderer.render(values);
        if (!result.ok) {
          const error = describeProblem(result.problem);
          return { locale: result.locale, error, bytes: bytesOf(error) };
        }
        // The memo hands the same content object to every device sharing it: measured once.
        let bytes = sized.get(result.content);
        if (bytes === undefined) sized.set(result.content, (bytes = bytesOf(result.content)));
        return { locale: result.locale, content: result.content, bytes };
      },
    };
  }
  const { localizations } = message;
  if (localizations === undefined || Object.keys(localizations).length === 0) return undefined;
  const base = { title: message.title, body: message.body };
  const byLocale = new Map<string, { content: LocaleContentFields; bytes: number }>();
  return {
    contentOf(values) {
      const chosen = localizeLiteral(base, localizations, values.locale);
      let known = byLocale.get(chosen.locale);
      if (known === undefined) byLocale.set(chosen.locale, (known = { content: chosen.content, bytes: bytesOf(chosen.content) }));
      return { locale: chosen.locale, ...known };
    },
  };
}

/**
 * Each row's content (I/O only in `rowsAt`, the index's in-memory read):
 * the device values (metadata, locale, time zone) are read for this send
 * only, never for a plain literal one.
 */
export function contentsOfRows(maker: ContentMaker, index: Pick<IndexReader, 'rowsAt'>, partition: number, rows: ReadonlyArray<{ ordinal: number; device_id: string }>): Map<string, DeviceContent> {
  const devices = index.rowsAt(partition, rows.map((row) => row.ordinal));
  const contents = new Map<string, DeviceContent>();
  for (const [at, row] of rows.entries()) contents.set(row.device_id, maker.contentOf(deviceValuesOf(devices[at])));
  return contents;
}

/** The values a template may read of a device row; the row was read a moment ago from the same index: a device gone since (undefined) gets none of its own. */
export function deviceValuesOf(device: ReturnType<IndexReader['rowsAt']>[number]): DeviceValues {
  return { metadata: device?.metadata ?? {}, locale: (device as { locale?: string } | undefined)?.locale, timezone: device?.timezone ?? undefined };
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
  const devices = batch.devices.map((device) => {
    const made = contents.get(device.device_id);
    if (made === undefined) return device;
    const variant = made.variant === undefined ? {} : { variant: made.variant };
    if ('error' in made) return { ...device, locale: made.locale, ...variant, error: made.error };
    let index = indexOf.get(made.content);
    if (index === undefined) {
      index = distinct.length;
      distinct.push(made.content);
      indexOf.set(made.content, index);
    }
    return { ...device, content: index, locale: made.locale, ...variant };
  });
  return { contents: distinct, devices };
}
