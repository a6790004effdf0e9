import { useState } from 'preact/hooks';
import { api, dataOf } from '../api/client.ts';
import { AddLocaleField, type LocaleTab, LocaleTabList } from '../components/locale-tabs.tsx';
import { Errors } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import type { Draft, FieldProblems, NotificationRequest } from '../lib/draft.ts';
import type { ContentMode, LocaleText } from '../lib/draft-variants.ts';
import { type bind, Field } from './composer-fields.tsx';
import { SplitTestFields } from './composer-variants.tsx';

type Set = (patch: Partial<Draft>) => void;
type Bind = (key: Parameters<typeof bind>[3]) => ReturnType<typeof bind>;

const MODES: Array<{ mode: ContentMode; label: string }> = [
  { mode: 'literal', label: 'Text' },
  { mode: 'template', label: 'A template' },
  { mode: 'ab', label: 'An A/B test' },
];

/** The names of the project's templates, for the pickers (the first page of 100: enough to pick from; any name may be typed). */
export function useTemplateNames(): string[] {
  const list = useLoad(async () => dataOf(await api.GET('/api/v1/templates', { params: { query: { limit: 100 } } })), []);
  return list.data?.data.map((template) => template.name) ?? [];
}

/** What is sent: text (with optional localisations), a template with its variables, or an A/B test of variants. */
export function ContentFields({ draft, set, problems, b }: { draft: Draft; set: Set; problems: FieldProblems; b: Bind }) {
  const templates = useTemplateNames();
  return (
    <fieldset>
      <legend>Content</legend>
      <div class="inline" role="radiogroup" aria-label="Content is">
        {MODES.map(({ mode, label }) => (
          <label key={mode} class="checkbox">
            <input type="radio" name="content-mode" value={mode} checked={draft.contentMode === mode} onChange={() => set({ contentMode: mode })} /> {label}
          </label>
        ))}
      </div>
      <datalist id="template-names">
        {templates.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {draft.contentMode === 'literal' ? <LiteralFields draft={draft} set={set} problems={problems} b={b} /> : null}
      {draft.contentMode === 'template' ? (
        <>
          <Field id="template" label="Template" problems={problems} hint="Its name (or id), from the library under Templates.">
            <input type="text" list="template-names" autoComplete="off" {...b('template')} />
          </Field>
          <Field id="templateVersion" label="Version" problems={problems} hint="Empty: the newest version when the send is accepted (it is pinned then).">
            <input type="text" inputMode="numeric" {...b('templateVersion')} />
          </Field>
          <Field id="variables" label="Variables (JSON)" problems={problems} hint='What the template reads, e.g. {"order": {"id": "A-1042"}}; device values are read under device.'>
            <textarea rows={3} class="mono" {...b('variables')} />
          </Field>
        </>
      ) : null}
      {draft.contentMode === 'ab' ? <SplitTestFields draft={draft} set={set} problems={problems} b={b} /> : null}
    </fieldset>
  );
}

/** Title and body (the default), and a tab per added locale with that locale's title and body. */
function LiteralFields({ draft, set, problems, b }: { draft: Draft; set: Set; problems: FieldProblems; b: Bind }) {
  const [active, setActive] = useState<string>('');
  const current = draft.localizations.find((each) => each.locale === active);
  const tabs: LocaleTab[] = ['', ...draft.localizations.map((each) => each.locale)].map((locale) => ({
    locale,
    id: `ctab-${locale || 'default'}`,
    controls: 'content-panel',
    testId: `content-tab-${locale || 'default'}`,
    class: 'tab',
    label: locale === '' ? 'Default' : locale,
  }));
  const change = (patch: Partial<LocaleText>) => set({ localizations: draft.localizations.map((each) => (each.locale === active ? { ...each, ...patch } : each)) });
  const add = (tag: string) => {
    const locale = tag.trim();
    if (locale === '' || draft.localizations.some((each) => each.locale === locale)) return false;
    set({ localizations: [...draft.localizations, { locale, title: '', body: '' }] });
    setActive(locale);
    return true;
  };
  return (
    <>
      <LocaleTabList tabs={tabs} selected={current?.locale ?? ''} onSelect={setActive} />
      <div role="tabpanel" id="content-panel" aria-labelledby={`ctab-${current?.locale ?? 'default'}`} class="tab-panel">
        {current === undefined ? (
          <>
            <Field id="title" label="Title" problems={problems}>
              <input type="text" {...b('title')} />
            </Field>
            <Field id="body" label="Body" problems={problems}>
              <textarea rows={3} {...b('body')} />
            </Field>
          </>
        ) : (
          <>
            <div class="field">
              <label for="f-locale-title">Title ({current.locale})</label>
              <input id="f-locale-title" type="text" value={current.title} aria-describedby="f-locale-hint" onInput={(event) => change({ title: event.currentTarget.value })} />
            </div>
            <div class="field">
              <label for="f-locale-body">Body ({current.locale})</label>
              <textarea id="f-locale-body" rows={3} value={current.body} aria-describedby="f-locale-hint" onInput={(event) => change({ body: event.currentTarget.value })} />
            </div>
            <p class="hint" id="f-locale-hint">
              Devices of {current.locale} (and its regions) get these; a field left empty is the default's.
            </p>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                set({ localizations: draft.localizations.filter((each) => each.locale !== current.locale) });
                setActive('');
              }}
            >
              Remove {current.locale}
            </button>
          </>
        )}
      </div>
      <AddLocaleField id="f-add-locale" fieldClass="field" placeholder="fr" onAdd={add} />
      <Errors errors={problems.localizations} />
    </>
  );
}

/** The request the preview renders: an A/B send's first variant's text (each variant is previewed the same way in the review). */
export function previewRequestOf(request: NotificationRequest): NotificationRequest {
  const first = request.variants?.[0];
  return first === undefined || first.template !== undefined ? request : { ...request, title: first.title ?? '', body: first.body ?? '' };
}

/** Instead of the preview for a template send: its content is rendered per device, and previewed in the template's editor. */
export function TemplateSendNote({ shown }: { shown: boolean }) {
  if (!shown) return null;
  return (
    <aside class="preview" aria-label="Preview">
      <h2>Preview</h2>
      <p>
        Each device gets the template's content in its language, rendered with the variables and its own values.{' '}
        The template's editor previews it per locale and platform with sample values: open it from the <a href="/console/templates">template library</a>.
      </p>
    </aside>
  );
}
