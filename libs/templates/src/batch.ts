import { DEFAULT_LOCALE, type LocaleContent, type RenderedContent, type TemplateProblem } from './content.ts';
import { pickLocale } from './locale.ts';
import type { DeviceValues, NotificationRenderer } from './render.ts';

/** One device of a batch as delivery knows it. */
export interface DeviceToRender {
  device_id: string;
  values: DeviceValues;
}

/** A device's share of a rendered batch: the index of its content, or the problem that failed it; and the locale it got. */
export type RenderedDevice = { device_id: string; locale: string; content: number } | { device_id: string; locale: string; problem: TemplateProblem };

/** A batch's distinct contents, each built into a provider payload once, and which one each device gets. */
export interface RenderedBatch {
  contents: RenderedContent[];
  devices: RenderedDevice[];
}

/**
 * Renders a batch's devices (pure but for the renderer's memo): devices
 * whose render key is equal share one content (the renderer returns the
 * same result), so a batch of 500 devices of a template reading no device
 * value has one content per locale, and its payload is built that many
 * times, not 500. A device whose render fails gets its problem and never
 * stops the others.
 */
export function renderBatch(renderer: NotificationRenderer, devices: readonly DeviceToRender[]): RenderedBatch {
  const contents: RenderedContent[] = [];
  const indexOf = new Map<object, number>();
  const rendered: RenderedDevice[] = [];
  for (const device of devices) {
    const result = renderer.render(device.values);
    if (!result.ok) {
      rendered.push({ device_id: device.device_id, locale: result.locale, problem: result.problem });
      continue;
    }
    let index = indexOf.get(result.content);
    if (index === undefined) {
      index = contents.length;
      contents.push(result.content);
      indexOf.set(result.content, index);
    }
    rendered.push({ device_id: device.device_id, locale: result.locale, content: index });
  }
  return { contents, devices: rendered };
}

/**
 * A literal send's content for a device's locale (pure): the send's own
 * fields, with its `localizations` entry for the locale chosen by the
 * usual fallback (`fr-CA` → `fr` → the send's own fields) laid over them.
 */
export function localizeLiteral<Base extends LocaleContent>(base: Base, localizations: Readonly<Record<string, Partial<LocaleContent>>>, deviceLocale: string | undefined): { locale: string; content: Base } {
  const locale = pickLocale(Object.keys(localizations), deviceLocale);
  const localized = locale === DEFAULT_LOCALE ? undefined : localizations[locale];
  return { locale, content: localized === undefined ? base : { ...base, ...localized } };
}
