import { useEffect, useMemo, useState } from 'preact/hooks';
import { DEFAULT_LOCALE, samplesOf, type TemplateForm } from '../lib/template-form.ts';
import { previewProblem, previewTemplate } from '../lib/template-preview.ts';
import { LockScreenPreview } from './composer-lock-screen.tsx';

/**
 * What a sample device gets, rendered in the browser on the API's own Liquid
 * engine (the API has no preview route; its save-time check is the word on
 * saving): the device's locale picks the content as delivery does, the
 * sample values fill the variables, and each platform's lock screen shows
 * where it cuts. It follows the tab being edited.
 */
export function TemplatePreview({ form, active }: { form: TemplateForm; active: string }) {
  const [deviceLocale, setDeviceLocale] = useState(active === DEFAULT_LOCALE ? '' : active);
  useEffect(() => setDeviceLocale(active === DEFAULT_LOCALE ? '' : active), [active]);
  const preview = useMemo(() => {
    const samples = samplesOf(form, {});
    return previewTemplate(form.locales, { locale: deviceLocale, metadata: samples.device?.metadata ?? {}, timezone: 'UTC' }, samples.variables ?? {});
  }, [form, deviceLocale]);
  return (
    <aside class="preview" aria-label="Preview" data-testid="template-preview">
      <h2>Preview</h2>
      <div class="field">
        <label for="t-preview-locale">Device locale</label>
        <input id="t-preview-locale" type="text" value={deviceLocale} placeholder="none (gets default)" aria-describedby="t-preview-locale-hint" onInput={(event) => setDeviceLocale(event.currentTarget.value)} />
        <p class="hint" id="t-preview-locale-hint">
          A device whose locale is this one, with the sample values.
        </p>
      </div>
      <p data-testid="preview-locale">
        Gets the <strong>{preview.locale}</strong> content.
      </p>
      {preview.ok ? (
        <>
          <LockScreenPreview title={preview.fields.title ?? ''} body={preview.fields.body ?? ''} platforms={['ios', 'android', 'web', 'huawei']} />
          {preview.fields.link_to === undefined ? null : (
            <p class="hint">
              Opens <code>{preview.fields.link_to}</code> on tap.
            </p>
          )}
          {preview.fields.image === undefined ? null : (
            <p class="hint">
              Image <code>{preview.fields.image}</code>
            </p>
          )}
        </>
      ) : (
        <p class="field-errors" role="status" data-testid="preview-problem">
          A device like this one would not get the push: {previewProblem(preview)}
        </p>
      )}
    </aside>
  );
}
