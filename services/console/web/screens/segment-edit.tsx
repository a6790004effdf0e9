import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, dataOf, errorsOf, messagesOf } from '../api/client.ts';
import { AudienceEditor } from '../components/audience-builder/editor.tsx';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { audienceText } from '../lib/audience-text.ts';
import { formatTime } from '../lib/format.ts';

/** One saved version, read only: what it meant, as a sentence and as JSON. */
function VersionView({ id, version }: { id: string; version: number }) {
  const loaded = useLoad(async () => dataOf(await api.GET('/api/v1/segments/{id}/versions/{version}', { params: { path: { id, version } } })), [id, version]);
  if (loaded.errors !== undefined) return <Errors errors={loaded.errors} onRetry={loaded.reload} />;
  if (loaded.data === undefined) return <Loading when />;
  const { filter, created_at } = loaded.data.data;
  return (
    <div class="version" data-testid="segment-version">
      <p>
        Version {version}, saved {formatTime(created_at)}: {audienceText(filter)}.
      </p>
      <pre class="mono wrap">{JSON.stringify(filter, null, 2)}</pre>
    </div>
  );
}

/** A segment: its versions, and the builder to save a new one. */
export function SegmentEdit() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const segment = useLoad(async () => dataOf(await api.GET('/api/v1/segments/{id}', { params: { path: { id } } })), [id]);
  const topics = useLoad(async () => dataOf(await api.GET('/api/v1/topics', { params: { query: { limit: 100 } } })), []);
  const others = useLoad(async () => dataOf(await api.GET('/api/v1/segments', { params: { query: { limit: 100 } } })), []);
  // Undefined until the builder changes something (a cleared builder is an edit too: { target: undefined }).
  const [edit, setEdit] = useState<{ target: unknown } | undefined>(undefined);
  const [viewed, setViewed] = useState<number | undefined>(undefined);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<number | undefined>(undefined);
  const current = segment.data?.data;
  useTitle(current === undefined ? 'Segment' : `Segment ${current.name}`);
  if (segment.errors !== undefined) return <Errors errors={segment.errors} onRetry={segment.reload} />;
  if (current === undefined) return <Loading when />;
  const editing = edit === undefined ? current.filter : edit.target;
  const save = async () => {
    setBusy(true);
    setErrors([]);
    setSaved(undefined);
    try {
      const { data, error, response } = await api.PUT('/api/v1/segments/{id}', { params: { path: { id } }, body: { filter: editing as string } });
      if (data === undefined) return setErrors(errorsOf(error, response.status));
      setSaved(data.data.version);
      setEdit(undefined);
      segment.reload();
    } catch (error) {
      setErrors([`Could not save. ${messagesOf(error).join(' ')}`]);
    } finally {
      setBusy(false);
    }
  };
  const versions = Array.from({ length: current.version }, (_, n) => current.version - n);
  return (
    <section>
      <p class="breadcrumb">
        <a href="/console/segments">Segments</a>
      </p>
      <h1>Segment {current.name}</h1>
      <h2>Edit</h2>
      <p class="muted">Saving makes version {current.version + 1}; sends already accepted keep the version they used.</p>
      <AudienceEditor value={editing} onChange={(target) => setEdit({ target })} errors={errors} errorPrefix="filter" topics={topics.data?.data.map((topic) => topic.name) ?? []} segments={(others.data?.data ?? []).filter((other) => other.id !== id).map((other) => other.name)} idPrefix="edit-segment" />
      <Errors errors={errors.filter((message) => !message.startsWith('filter'))} />
      <div class="actions">
        <button type="button" disabled={busy || edit === undefined || edit.target === undefined} onClick={() => void save()}>
          {busy ? 'Saving…' : `Save as version ${current.version + 1}`}
        </button>
      </div>
      {saved === undefined ? null : (
        <p role="status" class="live">
          Saved version {saved}.
        </p>
      )}
      <h2>Versions</h2>
      <div class="field">
        <label for="segment-version">Show version</label>
        <select id="segment-version" value={String(viewed ?? current.version)} onChange={(event) => setViewed(Number(event.currentTarget.value))}>
          {versions.map((version) => (
            <option key={version} value={String(version)}>
              {version === current.version ? `${version} (newest)` : String(version)}
            </option>
          ))}
        </select>
      </div>
      <VersionView id={id} version={viewed ?? current.version} />
    </section>
  );
}
