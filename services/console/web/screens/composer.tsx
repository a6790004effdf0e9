import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, dataOf, errorsOf } from '../api/client.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { EMPTY_DRAFT, newDraftKey, problemsByField, requestOf, type Draft, type FieldProblems } from '../lib/draft.ts';
import { formatCount } from '../lib/format.ts';
import { bind, Field } from './composer-fields.tsx';
import { PayloadPreview } from './composer-preview.tsx';

interface AudienceCount {
  total: number;
  by_platform: { ios: number; android: number };
}

export function Composer() {
  useTitle('Compose');
  const { query, route } = useLocation();
  const [draft, setDraft] = useState<Draft>(() => ({ ...EMPTY_DRAFT, topics: query.topic === undefined ? [] : [query.topic] }));
  // One key per draft: a double click, or a retry after a lost answer, sends once.
  const [draftKey] = useState(newDraftKey);
  const [apiProblems, setApiProblems] = useState<FieldProblems>({});
  const [audience, setAudience] = useState<AudienceCount | undefined>(undefined);
  const [counting, setCounting] = useState(false);
  const [sending, setSending] = useState(false);
  const topics = useLoad(async () => dataOf(await api.GET('/api/v1/topics', { params: { query: { limit: 100 } } })), []);
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const { request, problems: formProblems } = useMemo(() => requestOf(draft), [draft]);
  const problems: FieldProblems = { ...apiProblems, ...formProblems };
  const hasTargets = request.targets.length > 0;

  const countAudience = async () => {
    if (!hasTargets) return setAudience(undefined);
    setCounting(true);
    const { data, error, response } = await api.POST('/api/v1/notifications/dry-run', { body: { notification: request } });
    setCounting(false);
    if (data !== undefined) {
      setAudience(data.data);
      setApiProblems({});
    } else {
      setAudience(undefined);
      setApiProblems(response.status === 422 ? problemsByField(errorsOf(error, response.status)) : { form: errorsOf(error, response.status) });
    }
  };
  // The audience is counted again shortly after the targets change.
  const targetsKey = JSON.stringify(request.targets);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    clearTimeout(timer.current);
    setAudience(undefined);
    if (hasTargets) timer.current = setTimeout(() => void countAudience(), 600);
    return () => clearTimeout(timer.current);
  }, [targetsKey]);

  const send = async (event: Event) => {
    event.preventDefault();
    if (Object.keys(formProblems).length > 0 || sending) return;
    setSending(true);
    const { data, error, response } = await api.POST('/api/v1/notifications', { body: { notification: request }, params: { header: { 'idempotency-key': draftKey } } });
    setSending(false);
    if (data !== undefined) return route(`/console/notifications/${data.data.id}`);
    setApiProblems(response.status === 422 ? problemsByField(errorsOf(error, response.status)) : { form: errorsOf(error, response.status) });
  };

  const b = (key: Parameters<typeof bind>[3]) => bind(draft, set, problems, key);
  return (
    <section>
      <h1>Compose a notification</h1>
      <form class="composer" onSubmit={(event) => void send(event)} noValidate>
        <div class="composer-form">
          <fieldset>
            <legend>Content</legend>
            <Field id="title" label="Title" problems={problems}>
              <input type="text" {...b('title')} />
            </Field>
            <Field id="body" label="Body" problems={problems}>
              <textarea rows={3} {...b('body')} />
            </Field>
          </fieldset>
          <fieldset>
            <legend>Audience</legend>
            <Field id="topics" label="Topics" problems={problems} hint="Devices subscribed to any of these topics.">
              <select
                id="f-topics"
                multiple
                size={Math.min(6, Math.max(2, topics.data?.data.length ?? 2))}
                onChange={(event) => set({ topics: Array.from(event.currentTarget.selectedOptions, (option) => option.value) })}
              >
                {[...new Set([...(topics.data?.data.map((topic) => topic.name) ?? []), ...draft.topics])].map((name) => (
                  <option key={name} value={name} selected={draft.topics.includes(name)}>
                    {name}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="devices" label="Device ids or tokens" problems={problems} hint="One per line.">
              <textarea rows={2} {...b('devices')} />
            </Field>
            <Field id="externalIds" label="Users (external ids)" problems={problems} hint="One per line: every active device of each user.">
              <textarea rows={2} {...b('externalIds')} />
            </Field>
            <Field id="metadata" label="Metadata filter" problems={problems} hint="key=value lines; a device must match every pair.">
              <textarea rows={2} {...b('metadata')} />
            </Field>
            <Errors errors={problems.targets} />
            <div class="audience" aria-live="polite" data-testid="audience">
              {!hasTargets ? (
                'Pick at least one target to see how many devices it reaches.'
              ) : counting ? (
                'Counting the audience…'
              ) : audience === undefined ? (
                ''
              ) : (
                <>
                  Reaches <strong data-testid="audience-total">{formatCount(audience.total)}</strong> active {audience.total === 1 ? 'device' : 'devices'} now (iOS {formatCount(audience.by_platform.ios)}, Android{' '}
                  {formatCount(audience.by_platform.android)}).
                </>
              )}
              <button type="button" class="link-button" onClick={() => void countAudience()} disabled={!hasTargets || counting}>
                Count again
              </button>
            </div>
          </fieldset>
          <OptionFields draft={draft} set={set} problems={problems} b={b} />
          <Errors errors={problems.form} />
          <div class="actions">
            <button type="submit" disabled={sending || Object.keys(formProblems).length > 0}>
              {draft.schedule === 'now' ? 'Send now' : 'Schedule'}
            </button>
          </div>
        </div>
        <PayloadPreview request={request} />
      </form>
    </section>
  );
}

function OptionFields({ draft, set, problems, b }: { draft: Draft; set: (patch: Partial<Draft>) => void; problems: FieldProblems; b: (key: Parameters<typeof bind>[3]) => ReturnType<typeof bind> }) {
  return (
    <>
      <fieldset>
        <legend>When</legend>
        {(
          [
            ['now', 'Now'],
            ['at', 'At a time'],
            ['local', "At a local time in each device's time zone"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} class="radio">
            <input type="radio" name="schedule" value={value} checked={draft.schedule === value} onChange={() => set({ schedule: value })} /> {label}
          </label>
        ))}
        {draft.schedule === 'at' ? (
          <Field id="sendAt" label="Send at (your time zone)" problems={problems}>
            <input type="datetime-local" {...b('sendAt')} />
          </Field>
        ) : null}
        {draft.schedule === 'local' ? (
          <Field id="sendAtLocal" label="Send at, local time" problems={problems}>
            <input type="datetime-local" {...b('sendAtLocal')} />
          </Field>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Options</legend>
        <div class="grid">
          <Field id="link_to" label="Link (deep link or URL)" problems={problems}>
            <input type="text" {...b('link_to')} />
          </Field>
          <Field id="image" label="Image (https URL)" problems={problems}>
            <input type="text" {...b('image')} />
          </Field>
          <Field id="badge" label="Badge" problems={problems}>
            <input type="text" inputMode="numeric" {...b('badge')} />
          </Field>
          <Field id="sound" label="Sound" problems={problems}>
            <input type="text" {...b('sound')} />
          </Field>
          <Field id="ttl" label="Time to live (seconds)" problems={problems}>
            <input type="text" inputMode="numeric" {...b('ttl')} />
          </Field>
          <Field id="priority" label="Priority" problems={problems}>
            <select id="f-priority" value={draft.priority} onChange={(event) => set({ priority: event.currentTarget.value as Draft['priority'] })}>
              <option value="">Provider default</option>
              <option value="high">high</option>
              <option value="normal">normal</option>
            </select>
          </Field>
          <Field id="collapse_id" label="Collapse id" problems={problems}>
            <input type="text" {...b('collapse_id')} />
          </Field>
          <Field id="group" label="Group" problems={problems}>
            <input type="text" {...b('group')} />
          </Field>
          <Field id="thread_id" label="Thread id" problems={problems}>
            <input type="text" {...b('thread_id')} />
          </Field>
          <Field id="category" label="Category" problems={problems}>
            <input type="text" {...b('category')} />
          </Field>
        </div>
        <label class="check">
          <input type="checkbox" checked={draft.content_available} onChange={(event) => set({ content_available: event.currentTarget.checked })} /> Silent (background) push
        </label>
        <label class="check">
          <input type="checkbox" checked={draft.mutable_content} onChange={(event) => set({ mutable_content: event.currentTarget.checked })} /> Mutable content (iOS extension)
        </label>
        <Field id="data" label="Data" problems={problems} hint="key=value lines, delivered to the app.">
          <textarea rows={2} {...b('data')} />
        </Field>
        <Field id="apns" label="Raw APNs JSON (merged last)" problems={problems}>
          <textarea rows={2} class="mono" {...b('apns')} />
        </Field>
        <Field id="fcm" label="Raw FCM JSON (merged last)" problems={problems}>
          <textarea rows={2} class="mono" {...b('fcm')} />
        </Field>
      </fieldset>
    </>
  );
}
