import { useState } from 'preact/hooks';
import { messagesOf } from '../api/client.ts';
import { createDraft, deleteDraft, listDrafts, updateDraft } from '../api/drafts.ts';
import { Errors } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { defaultDraftName } from '../lib/draft-content.ts';
import type { Draft, NotificationRequest } from '../lib/draft.ts';
import { formatTime } from '../lib/format.ts';

/**
 * Saving the composer's state as a named draft on the server (so another
 * browser, or this one after a reload, resumes it), and the project's
 * drafts to resume or delete. Resuming is a link: /console/compose?draft=<id>.
 */
export function DraftBar({ form, request, draftId, replaces, onSaved }: { form: Draft; request: NotificationRequest; draftId: string | undefined; replaces?: string | undefined; onSaved: (id: string) => void }) {
  const [name, setName] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<string | undefined>(undefined);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const drafts = useLoad(listDrafts, []);
  const shownName = name ?? defaultDraftName(form);

  const save = async () => {
    setSaving(true);
    setErrors(undefined);
    try {
      const body = { name: shownName.trim() === '' ? defaultDraftName(form) : shownName.trim(), content: { notification: request, form, ...(replaces === undefined ? {} : { replaces }) } };
      const saved = draftId === undefined ? await createDraft(body) : await updateDraft(draftId, body);
      setSavedAt(saved.updated_at);
      onSaved(saved.id);
      drafts.reload();
    } catch (error) {
      setErrors([`The draft was not saved. ${messagesOf(error).join(' ')}`]);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (id: string) => {
    try {
      await deleteDraft(id);
      drafts.reload();
    } catch (error) {
      setErrors([`The draft was not deleted. ${messagesOf(error).join(' ')}`]);
    }
  };

  return (
    <fieldset class="drafts" data-testid="drafts">
      <legend>Draft</legend>
      <div class="draft-save">
        <label for="draft-name">Campaign name</label>
        <input id="draft-name" type="text" maxLength={200} value={shownName} onInput={(event) => setName(event.currentTarget.value)} />
        <button type="button" class="secondary" onClick={() => void save()} disabled={saving} data-testid="save-draft">
          {saving ? 'Saving…' : draftId === undefined ? 'Save draft' : 'Save draft again'}
        </button>
      </div>
      <p class="muted" aria-live="polite" data-testid="draft-saved">
        {savedAt === undefined ? (draftId === undefined ? 'Not saved: drafts are kept for the whole project, on the server.' : 'Resumed from a saved draft.') : `Saved ${formatTime(savedAt)}.`}
      </p>
      <Errors errors={errors} />
      <details>
        <summary>Saved drafts{drafts.data === undefined ? '' : ` (${drafts.data.length})`}</summary>
        <Errors errors={drafts.errors} onRetry={drafts.reload} />
        {drafts.data?.length === 0 ? <p class="muted">No drafts yet.</p> : null}
        <ul class="draft-list" data-testid="draft-list">
          {drafts.data?.map((draft) => (
            <li key={draft.id}>
              <a href={`/console/compose?draft=${draft.id}`} aria-current={draft.id === draftId ? 'true' : undefined}>
                {draft.name}
              </a>{' '}
              <span class="muted">saved {formatTime(draft.updated_at)}</span>{' '}
              <button type="button" class="link-button" onClick={() => void remove(draft.id)} aria-label={`Delete draft ${draft.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      </details>
    </fieldset>
  );
}
