import { useState } from 'preact/hooks';
import { api, dataOf } from '../api/client.ts';
import { AudienceEditor } from '../components/audience-builder/editor.tsx';
import { SaveAsSegment } from '../components/audience-builder/save-segment.tsx';
import { Errors } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';

/** The expression field's text as a target for the builder: undefined when empty, null when it is not JSON (the field says so). */
function parsed(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * The composer's audience builder: it reads and writes the expression
 * field (the last of the send's targets), so the JSON field below stays the
 * one place of the expression, editable by hand for what the builder does
 * not show. The API's problems with it show at the node they name.
 */
export function ComposerAudience({ expression, setExpression, errors, targetIndex, topics }: { expression: string; setExpression: (text: string) => void; errors: readonly string[] | undefined; targetIndex: number; topics: readonly string[] }) {
  const segments = useLoad(async () => dataOf(await api.GET('/api/v1/segments', { params: { query: { limit: 100 } } })), []);
  const [saveErrors, setSaveErrors] = useState<string[]>([]);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const value = parsed(expression);
  const segmentNames = [...(segments.data?.data.map((segment) => segment.name) ?? []), ...(saved === undefined ? [] : [saved])];
  if (value === null) return <p class="muted">The expression below is not JSON the builder can read: fix it there, or empty it to start over here.</p>;
  return (
    <div class="composer-audience">
      <h2 class="builder-heading">Audience builder</h2>
      <AudienceEditor
        value={value}
        onChange={(target) => setExpression(target === undefined ? '' : JSON.stringify(target))}
        errors={[...(errors ?? []), ...saveErrors]}
        errorPrefix={`notification.targets[${targetIndex}]`}
        topics={topics}
        segments={[...new Set(segmentNames)]}
        showCount={false}
        idPrefix="composer"
      />
      <Errors errors={segments.errors} onRetry={segments.reload} />
      <SaveAsSegment
        target={value}
        idPrefix="composer"
        onFilterErrors={(messages) => setSaveErrors(messages.map((message) => message.replace(/^filter/, `notification.targets[${targetIndex}]`)))}
        onSaved={(name) => {
          setSaved(name);
          segments.reload();
        }}
      />
      {saved === undefined ? null : (
        <button type="button" class="secondary" onClick={() => setExpression(JSON.stringify({ segment: saved }))}>
          Send to segment "{saved}" instead
        </button>
      )}
    </div>
  );
}
