import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { messagesOf } from '../api/client.ts';
import { createDraft } from '../api/drafts.ts';
import { Errors } from '../components/ui.tsx';
import { formOf } from '../lib/draft-content.ts';
import { requestOf } from '../lib/draft.ts';

/**
 * Makes a server-side draft of a sent notification's request (named after
 * it, recording where it came from) and opens it in the composer: the same
 * campaign again, edited, reviewed and sent as a new notification.
 */
export function DuplicateIntoDraft({ id, title, request }: { id: string; title: string; request: Record<string, unknown> | undefined }) {
  const { route } = useLocation();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  if (request === undefined) return null;
  const duplicate = async () => {
    setBusy(true);
    setErrors(undefined);
    try {
      const form = formOf(request);
      const draft = await createDraft({ name: `${title === '' ? 'Untitled' : title} (copy)`.slice(0, 200), content: { notification: requestOf(form).request, form }, source_notification_id: id });
      route(`/console/compose?draft=${draft.id}`);
    } catch (error) {
      setErrors([`Could not make the draft. ${messagesOf(error).join(' ')}`]);
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="secondary" disabled={busy} onClick={() => void duplicate()} data-testid="duplicate">
        {busy ? 'Making a draft…' : 'Duplicate into a draft'}
      </button>
      <Errors errors={errors} />
    </>
  );
}
