import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { messagesOf } from '../api/client.ts';
import { createDraft } from '../api/drafts.ts';
import { Errors } from '../components/ui.tsx';
import { formOf } from '../lib/draft-content.ts';
import { requestOf, type Draft } from '../lib/draft.ts';

/** A scheduled request's time as the composer's fields: an instant in the browser's zone (datetime-local), or the local wall-clock time. */
function scheduleOf(request: Record<string, unknown>): Pick<Draft, 'schedule' | 'sendAt' | 'sendAtLocal'> {
  if (typeof request.send_at_local === 'string') return { schedule: 'local', sendAt: '', sendAtLocal: request.send_at_local.slice(0, 16) };
  if (typeof request.send_at !== 'string') return { schedule: 'now', sendAt: '', sendAtLocal: '' };
  const at = new Date(request.send_at);
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  return { schedule: 'at', sendAt: local, sendAtLocal: '' };
}

/**
 * Makes a server-side draft of a sent notification's request (named after
 * it, recording where it came from) and opens it in the composer: the same
 * campaign again, edited, reviewed and sent as a new notification.
 */
export function DuplicateIntoDraft({ id, title, request, edit = false }: { id: string; title: string; request: Record<string, unknown> | undefined; edit?: boolean }) {
  const { route } = useLocation();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  if (request === undefined) return null;
  const duplicate = async () => {
    setBusy(true);
    setErrors(undefined);
    try {
      // An edit keeps the schedule (the form's own time fields) and sends in the old one's place.
      const form = edit ? { ...formOf(request), ...scheduleOf(request) } : formOf(request);
      const name = `${title === '' ? 'Untitled' : title} (${edit ? 'edit' : 'copy'})`.slice(0, 200);
      const draft = await createDraft({ name, content: { notification: requestOf(form).request, form, ...(edit ? { replaces: id } : {}) }, source_notification_id: id });
      route(`/console/compose?draft=${draft.id}`);
    } catch (error) {
      setErrors([`Could not make the draft. ${messagesOf(error).join(' ')}`]);
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="secondary" disabled={busy} onClick={() => void duplicate()} data-testid={edit ? 'edit-scheduled' : 'duplicate'}>
        {busy ? 'Making a draft…' : edit ? 'Edit or reschedule' : 'Duplicate into a draft'}
      </button>
      <Errors errors={errors} />
    </>
  );
}
