import type { Draft, FieldProblems } from '../lib/draft.ts';
import { MAX_VARIANTS, MIN_VARIANTS, newVariant, type VariantForm } from '../lib/draft-variants.ts';
import { type bind, Field } from './composer-fields.tsx';

export const canAddVariant = (variants: readonly VariantForm[]) => variants.length < MAX_VARIANTS;
export const canRemoveVariant = (variants: readonly VariantForm[]) => variants.length > MIN_VARIANTS;
/** The next free letter for a new variant (A, B, C, …). */
export const nextVariant = (variants: readonly VariantForm[]): VariantForm => newVariant('ABCDE'.split('').find((letter) => !variants.some((each) => each.name === letter)) ?? `V${variants.length + 1}`);

type Set = (patch: Partial<Draft>) => void;
type Bind = (key: Parameters<typeof bind>[3]) => ReturnType<typeof bind>;

/**
 * An A/B test: 2–5 variants side by side (each text or a template), the
 * holdout that gets nothing, and optionally a test share with when to
 * decide and which variant the rest gets when none wins.
 */
export function SplitTestFields({ draft, set, problems, b }: { draft: Draft; set: Set; problems: FieldProblems; b: Bind }) {
  const change = (n: number, patch: Partial<VariantForm>) => set({ variants: draft.variants.map((each, at) => (at === n ? { ...each, ...patch } : each)) });
  return (
    <>
      <p class="muted">Each device gets one variant, by a hash of the notification and the device: the same on every replay.</p>
      <div class="variants" data-testid="variants">
        {draft.variants.map((variant, n) => {
          const id = `f-variant-${n}`;
          return (
            <fieldset key={n} class="variant" data-testid={`variant-${n}`}>
              <legend>Variant {variant.name.trim() === '' ? n + 1 : variant.name}</legend>
              <div class="field">
                <label for={`${id}-name`}>Name</label>
                <input id={`${id}-name`} type="text" value={variant.name} onInput={(event) => change(n, { name: event.currentTarget.value })} />
              </div>
              <div class="inline" role="radiogroup" aria-label={`Variant ${n + 1} is`}>
                <label class="checkbox">
                  <input type="radio" name={`${id}-kind`} checked={variant.kind === 'literal'} onChange={() => change(n, { kind: 'literal' })} /> Text
                </label>
                <label class="checkbox">
                  <input type="radio" name={`${id}-kind`} checked={variant.kind === 'template'} onChange={() => change(n, { kind: 'template' })} /> Template
                </label>
              </div>
              {variant.kind === 'literal' ? (
                <>
                  <div class="field">
                    <label for={`${id}-title`}>Title of {variant.name || `variant ${n + 1}`}</label>
                    <input id={`${id}-title`} type="text" value={variant.title} onInput={(event) => change(n, { title: event.currentTarget.value })} />
                  </div>
                  <div class="field">
                    <label for={`${id}-body`}>Body of {variant.name || `variant ${n + 1}`}</label>
                    <textarea id={`${id}-body`} rows={3} value={variant.body} onInput={(event) => change(n, { body: event.currentTarget.value })} />
                  </div>
                </>
              ) : (
                <>
                  <div class="field">
                    <label for={`${id}-template`}>Template of {variant.name || `variant ${n + 1}`}</label>
                    <input id={`${id}-template`} type="text" list="template-names" autoComplete="off" value={variant.template} onInput={(event) => change(n, { template: event.currentTarget.value })} />
                  </div>
                  <div class="field">
                    <label for={`${id}-variables`}>Variables of {variant.name || `variant ${n + 1}`} (JSON)</label>
                    <textarea id={`${id}-variables`} rows={2} class="mono" value={variant.variables} onInput={(event) => change(n, { variables: event.currentTarget.value })} />
                  </div>
                </>
              )}
              {canRemoveVariant(draft.variants) ? (
                <button type="button" class="link-button" onClick={() => set({ variants: draft.variants.filter((_, at) => at !== n) })}>
                  Remove {variant.name || `variant ${n + 1}`}
                </button>
              ) : null}
            </fieldset>
          );
        })}
      </div>
      {canAddVariant(draft.variants) ? (
        <button type="button" class="secondary" onClick={() => set({ variants: [...draft.variants, nextVariant(draft.variants)] })}>
          Add a variant
        </button>
      ) : null}
      {problems.variants === undefined ? null : (
        <ul class="field-errors" data-testid="errors-variants">
          {problems.variants.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      <Field id="holdout_percent" label="Holdout (%)" problems={problems} hint="0–50: this share of the audience gets nothing (reported held_out), the baseline to measure each variant against.">
        <input type="text" inputMode="numeric" {...b('holdout_percent')} />
      </Field>
      <Field id="testPercent" label="Test share (%)" problems={problems} hint="1–100 of the audience outside the holdout tries the variants; the rest gets the winner later. Empty: everyone takes part, nothing is decided.">
        <input type="text" inputMode="numeric" {...b('testPercent')} />
      </Field>
      <Field id="decideAfter" label="Decide after" problems={problems} hint="With a test share: an ISO 8601 duration after the send (PT2H, PT90M, P1D; at most P7D). The best open rate wins if significant.">
        <input type="text" {...b('decideAfter')} />
      </Field>
      <Field id="fallback" label="When no variant wins" problems={problems} hint="The variant the rest gets when the difference is not significant.">
        <select id="f-fallback" value={draft.fallback} onChange={(event) => set({ fallback: event.currentTarget.value })}>
          <option value="">The first ({draft.variants[0]?.name ?? 'A'})</option>
          {draft.variants.map((variant) => (
            <option key={variant.name} value={variant.name}>
              {variant.name}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}
