import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import type { paths } from '@herald/client';
import { api, dataOf, errorsOf, messagesOf } from '../api/client.ts';
import { useTitle } from '../components/layout.tsx';
import { ConfirmButton, Errors, Loading } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatTime } from '../lib/format.ts';
import {
  DEFAULT_LOCALE,
  emptyLocale,
  formOfTemplate,
  localesWithProblems,
  newLocaleProblem,
  newTemplateForm,
  templateBodyOf,
  templateProblemsOf,
  type TemplateForm,
  type TemplateProblems,
} from '../lib/template-form.ts';
import { FieldMessages, LocaleTabs } from './template-locales.tsx';
import { TemplatePreview } from './template-preview-pane.tsx';

// The editor's body is built field by field (lib/template-form.ts); the API's check is the word on its shape.
type CreateBody = paths['/api/v1/templates']['post']['requestBody']['content']['application/json'];
type UpdateBody = paths['/api/v1/templates/{id}']['put']['requestBody']['content']['application/json'];
type Version = { version: number; content: Record<string, unknown>; name: string; created_at: string };

/**
 * A template's editor (/console/templates/new, /console/templates/{id}):
 * its versions, content by locale in tabs, sample values and a live preview.
 * Saving makes a new version (PUT) or the template (POST); the API's
 * save-time check answers 422 naming locale, field and line, shown at that
 * field with its tab opened.
 */
export function TemplateEdit() {
  const { params } = useRoute();
  const { query, route } = useLocation();
  const id = params.id === 'new' ? undefined : params.id;
  const versionAsked = query.version === undefined ? undefined : Number(query.version);
  const versions = useLoad(async () => (id === undefined ? undefined : dataOf(await api.GET('/api/v1/templates/{id}/versions', { params: { path: { id }, query: { limit: 100 } } }))), [id]);
  const loaded = useLoad(async (): Promise<Version | undefined> => {
    if (id === undefined) return undefined;
    if (versionAsked !== undefined && Number.isInteger(versionAsked)) return dataOf(await api.GET('/api/v1/templates/{id}/versions/{version}', { params: { path: { id, version: versionAsked } } })).data;
    return dataOf(await api.GET('/api/v1/templates/{id}', { params: { path: { id } } })).data;
  }, [id, versionAsked]);
  const [form, setForm] = useState<TemplateForm>(newTemplateForm);
  const [active, setActive] = useState(DEFAULT_LOCALE);
  const [apiProblems, setApiProblems] = useState<TemplateProblems>({});
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (loaded.data === undefined) return;
    const next = formOfTemplate(loaded.data.name, loaded.data.content);
    // The sample values are the editor's, not the version's: kept across versions and saves.
    setForm((current) => ({ ...next, sampleVariables: current.sampleVariables, sampleMetadata: current.sampleMetadata }));
    setActive(DEFAULT_LOCALE);
    setApiProblems({});
  }, [loaded.data]);
  useTitle(id === undefined ? 'New template' : form.name === '' ? 'Template' : `Template ${form.name}`);

  const { body, problems: formProblems } = templateBodyOf(form, loaded.data?.content);
  const [tried, setTried] = useState(false);
  // The form's own problems show once a save was tried (an empty new form is not an error yet).
  const problems: TemplateProblems = { ...apiProblems, ...(tried ? formProblems : {}) };
  const update = (patch: Partial<TemplateForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setSaved(undefined);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setTried(true);
    const blocking = localesWithProblems(formProblems, form.locales);
    if (Object.keys(formProblems).length > 0) {
      if (blocking[0] !== undefined) setActive(blocking[0]);
      return;
    }
    setSaving(true);
    setApiProblems({});
    try {
      const answer =
        id === undefined
          ? await api.POST('/api/v1/templates', { body: { ...body, name: body.name ?? '' } as CreateBody })
          : await api.PUT('/api/v1/templates/{id}', { params: { path: { id } }, body: { content: body.content, ...(body.samples === undefined ? {} : { samples: body.samples }) } as UpdateBody });
      const { data, error, response } = answer;
      if (data !== undefined) {
        setSaved(data.data.version);
        if (id === undefined) return route(`/console/templates/${data.data.id}`);
        versions.reload();
        if (versionAsked === undefined) loaded.reload();
        else route(`/console/templates/${id}`);
        return;
      }
      const messages = response.status === 409 ? [`name: a template named "${form.name.trim()}" exists already (open it to save a new version)`] : errorsOf(error, response.status);
      const found = templateProblemsOf(messages, form.locales.map((each) => each.locale));
      setApiProblems(found);
      const first = localesWithProblems(found, form.locales)[0];
      if (first !== undefined) setActive(first);
    } catch (error) {
      setApiProblems({ form: [`Could not save the template. ${messagesOf(error).join(' ')}`] });
    } finally {
      setSaving(false);
    }
  };

  if (id !== undefined && loaded.data === undefined) {
    return (
      <section>
        <h1>Template</h1>
        <Errors errors={loaded.errors} onRetry={loaded.reload} />
        <Loading when={loaded.loading} />
      </section>
    );
  }
  const newest = versions.data?.data[0]?.version;
  const shown = loaded.data?.version;
  return (
    <section>
      <p class="breadcrumb">
        <a href="/console/templates">Templates</a>
      </p>
      <h1>{id === undefined ? 'New template' : form.name}</h1>
      {id === undefined ? null : (
        <div class="toolbar" data-testid="template-versions">
          <label for="t-version">Version</label>
          <select id="t-version" value={String(shown ?? '')} onChange={(event) => route(`/console/templates/${id}?version=${event.currentTarget.value}`)}>
            {(versions.data?.data ?? []).map((version) => (
              <option key={version.version} value={String(version.version)}>
                {version.version} · {formatTime(version.created_at)}
                {version.version === newest ? ' (newest)' : ''}
              </option>
            ))}
          </select>
          <span class="muted">
            Sends name it <code>{form.name}</code> (the newest) or <code>{`${form.name}@${shown ?? 1}`}</code> (this version). Saving makes version {(newest ?? 0) + 1}.
          </span>
          <a href={`/console/compose?template=${encodeURIComponent(form.name)}`}>Send with it</a>
          <ConfirmButton
            label="Delete"
            detail={`template ${form.name}`}
            question={`Delete ${form.name} and all its versions? Sends already accepted keep the version they pinned; new sends naming it are refused.`}
            confirmLabel="Delete the template"
            onConfirm={async () => {
              const { response, error } = await api.DELETE('/api/v1/templates/{id}', { params: { path: { id } } });
              if (response.ok) return route('/console/templates');
              setApiProblems({ form: [`Could not delete the template. ${errorsOf(error, response.status).join(' ')}`] });
            }}
          />
        </div>
      )}
      <form class="composer" onSubmit={(event) => void save(event)} noValidate>
        <div class="composer-form">
          {id !== undefined ? null : (
            <div class={`field${problems.name === undefined ? '' : ' has-error'}`}>
              <label for="t-name">Name</label>
              <input
                id="t-name"
                type="text"
                value={form.name}
                aria-invalid={problems.name === undefined ? undefined : 'true'}
                aria-describedby={problems.name === undefined ? 't-name-hint' : 't-name-hint t-name-errors'}
                onInput={(event) => update({ name: event.currentTarget.value })}
              />
              <p class="hint" id="t-name-hint">
                Unique in the project; sends name the template by it (order-shipped, order-shipped@2).
              </p>
              <FieldMessages id="t-name-errors" messages={problems.name} />
            </div>
          )}
          <LocaleTabs
            locales={form.locales}
            active={active}
            problems={problems}
            onActive={setActive}
            onChange={(locales) => update({ locales })}
            addProblem={(tag) => newLocaleProblem(tag, form.locales)}
            onAdd={(tag) => {
              update({ locales: [...form.locales, emptyLocale(tag)] });
              setActive(tag);
            }}
          />
          <fieldset>
            <legend>Sample values</legend>
            <p class="muted">The save-time check and the preview render every locale with these; a variable they leave out reads "sample".</p>
            <div class={`field${problems.samples === undefined ? '' : ' has-error'}`}>
              <label for="t-sample-variables">Variables (JSON)</label>
              <textarea id="t-sample-variables" rows={3} class="mono" value={form.sampleVariables} onInput={(event) => update({ sampleVariables: event.currentTarget.value })} />
            </div>
            <div class={`field${problems.samples === undefined ? '' : ' has-error'}`}>
              <label for="t-sample-metadata">Device metadata</label>
              <textarea id="t-sample-metadata" rows={2} class="mono" value={form.sampleMetadata} aria-describedby="t-sample-metadata-hint" onInput={(event) => update({ sampleMetadata: event.currentTarget.value })} />
              <p class="hint" id="t-sample-metadata-hint">
                key=value lines, read as device.metadata.key.
              </p>
              <FieldMessages id="t-samples-errors" messages={problems.samples} />
            </div>
          </fieldset>
          <Errors errors={problems.form} />
          <div class="actions">
            <button type="submit" disabled={saving} data-testid="save-template">
              {saving ? 'Saving…' : id === undefined ? 'Save template' : 'Save as a new version'}
            </button>
            {saved === undefined ? null : (
              <span role="status" data-testid="template-saved">
                Saved as version {saved}.
              </span>
            )}
          </div>
        </div>
        <TemplatePreview form={form} active={active} />
      </form>
    </section>
  );
}
