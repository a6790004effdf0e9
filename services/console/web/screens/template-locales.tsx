import { useState } from 'preact/hooks';
import { AddLocaleField, LocaleTabList } from '../components/locale-tabs.tsx';
import { DEFAULT_LOCALE, TEMPLATE_FIELDS, type LocaleFields, type TemplateField, type TemplateProblems } from '../lib/template-form.ts';

const LABELS: Record<TemplateField, { label: string; hint: string; rows: number }> = {
  title: { label: 'Title', hint: 'Liquid: {{ order.id }}, {{ device.metadata.first_name | default: "there" }}.', rows: 1 },
  body: { label: 'Body', hint: 'Liquid, several lines allowed: {% if device.metadata.plan %}…{% endif %}.', rows: 3 },
  link_to: { label: 'Link (deep link opened on tap)', hint: 'Optional; Liquid.', rows: 1 },
  image: { label: 'Image (https URL)', hint: 'Optional; Liquid.', rows: 1 },
};

/** Problems beside the control they name. */
export function FieldMessages({ id, messages }: { id: string; messages: readonly string[] | undefined }) {
  if (messages === undefined || messages.length === 0) return null;
  return (
    <ul class="field-errors" id={id} data-testid={id}>
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

const slug = (locale: string) => locale.replace(/[^A-Za-z0-9-]/g, '_');
const hasProblem = (problems: TemplateProblems, locale: string) => Object.keys(problems).some((key) => key === locale || key.startsWith(`${locale}.`));

/**
 * A template's content by locale: one tab per locale (`default` first), a
 * tab with a problem marked, each field's problems under it; a locale is
 * added by its tag and removed (never `default`).
 */
export function LocaleTabs({
  locales,
  active,
  problems,
  onActive,
  onChange,
  addProblem,
  onAdd,
}: {
  locales: readonly LocaleFields[];
  active: string;
  problems: TemplateProblems;
  onActive: (locale: string) => void;
  onChange: (locales: LocaleFields[]) => void;
  addProblem: (tag: string) => string | undefined;
  onAdd: (tag: string) => void;
}) {
  const [tagProblem, setTagProblem] = useState<string | undefined>(undefined);
  const current = locales.find((each) => each.locale === active) ?? locales[0];
  const setField = (field: TemplateField, value: string) => onChange(locales.map((each) => (each.locale === current?.locale ? { ...each, [field]: value } : each)));
  const add = (tag: string) => {
    const problem = addProblem(tag);
    setTagProblem(problem);
    if (problem !== undefined) return false;
    onAdd(tag.trim());
    return true;
  };
  const tabs = locales.map(({ locale }) => {
    const flagged = hasProblem(problems, locale);
    return {
      locale,
      id: `tab-${slug(locale)}`,
      controls: `panel-${slug(locale)}`,
      testId: `locale-tab-${locale}`,
      class: `tab${flagged ? ' tab-problem' : ''}`,
      label: (
        <>
          {locale}
          {flagged ? <span class="tab-flag"> (has a problem)</span> : null}
        </>
      ),
    };
  });
  return (
    <fieldset class="locales">
      <legend>Content by locale</legend>
      <p class="muted">A device gets its locale's content, else its language's (fr-CA → fr), else default's.</p>
      <LocaleTabList tabs={tabs} selected={current?.locale ?? DEFAULT_LOCALE} onSelect={onActive} />
      {current === undefined ? null : (
        <div role="tabpanel" id={`panel-${slug(current.locale)}`} aria-labelledby={`tab-${slug(current.locale)}`} class="tab-panel" data-testid="locale-panel">
          <FieldMessages id={`t-${slug(current.locale)}-errors`} messages={problems[current.locale]} />
          {TEMPLATE_FIELDS.map((field) => {
            const id = `t-${slug(current.locale)}-${field}`;
            const messages = problems[`${current.locale}.${field}`];
            const described = [`${id}-hint`, messages === undefined ? '' : `${id}-errors`].filter(Boolean).join(' ');
            const control = {
              id,
              value: current[field],
              class: 'mono',
              'aria-invalid': messages === undefined ? undefined : ('true' as const),
              'aria-describedby': described,
              onInput: (event: Event) => setField(field, (event.currentTarget as HTMLInputElement).value),
            };
            return (
              <div key={field} class={`field${messages === undefined ? '' : ' has-error'}`}>
                <label for={id}>{LABELS[field].label}</label>
                {LABELS[field].rows === 1 ? <input type="text" {...control} /> : <textarea rows={LABELS[field].rows} {...control} />}
                <p class="hint" id={`${id}-hint`}>
                  {LABELS[field].hint}
                </p>
                <FieldMessages id={`${id}-errors`} messages={messages} />
              </div>
            );
          })}
          {current.locale === DEFAULT_LOCALE ? null : (
            <button
              type="button"
              class="secondary"
              onClick={() => {
                onChange(locales.filter((each) => each.locale !== current.locale));
                onActive(DEFAULT_LOCALE);
              }}
            >
              Remove {current.locale}
            </button>
          )}
        </div>
      )}
      <AddLocaleField
        id="t-new-locale"
        fieldClass={`field add-locale${tagProblem === undefined ? '' : ' has-error'}`}
        placeholder="fr-CA"
        errorsId={tagProblem === undefined ? undefined : 't-new-locale-errors'}
        onAdd={add}
      >
        <FieldMessages id="t-new-locale-errors" messages={tagProblem === undefined ? undefined : [tagProblem]} />
      </AddLocaleField>
    </fieldset>
  );
}
