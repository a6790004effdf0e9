import type { ComponentChildren } from 'preact';
import type { Draft, DraftField, FieldProblems } from '../lib/draft.ts';

/** A labelled control with the problems (the API's 422 or the form's own) that name it, right beside it. */
export function Field({ id, label, problems, hint, children }: { id: DraftField; label: string; problems: FieldProblems; hint?: string; children: ComponentChildren }) {
  const messages = problems[id] ?? [];
  return (
    <div class={`field${messages.length > 0 ? ' has-error' : ''}`}>
      <label for={`f-${id}`}>{label}</label>
      {children}
      {hint === undefined ? null : (
        <p class="hint" id={`f-${id}-hint`}>
          {hint}
        </p>
      )}
      {messages.length === 0 ? null : (
        <ul class="field-errors" id={`f-${id}-errors`} data-testid={`errors-${id}`}>
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

type TextKey = { [K in keyof Draft]: Draft[K] extends string ? K : never }[keyof Draft];

/** Props wiring a text input or textarea to one draft field. */
export function bind(draft: Draft, set: (patch: Partial<Draft>) => void, problems: FieldProblems, key: TextKey) {
  const described = [problems[key] === undefined ? '' : `f-${key}-errors`].filter(Boolean).join(' ');
  return {
    id: `f-${key}`,
    name: key,
    value: draft[key],
    'aria-invalid': problems[key] === undefined ? undefined : ('true' as const),
    'aria-describedby': described === '' ? undefined : described,
    onInput: (event: Event) => set({ [key]: (event.currentTarget as HTMLInputElement).value }),
  };
}
