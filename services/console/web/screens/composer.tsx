import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ApiError, dataOf, errorsOf, messagesOf } from '../api/client.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { EMPTY_DRAFT, newDraftKey, problemsByField, requestOf, type Draft, type FieldProblems } from '../lib/draft.ts';
import { formatCount } from '../lib/format.ts';
import { platformsReached } from '../lib/lock-screen.ts';
import { platformCountsText } from '../lib/platforms.ts';
import { audienceText } from '../lib/audience-text.ts';
import { bind, Field } from './composer-fields.tsx';
import { DeliveryFields, OptionFields } from './composer-options.tsx';
import { SendOutcome, type Unconfirmed } from './composer-outcome.tsx';
import { PayloadPreview } from './composer-preview.tsx';
import { SendReview, type AudienceCount } from './composer-review.tsx';
import { DraftBar } from './composer-drafts.tsx';
import { getDraft } from '../api/drafts.ts';
import { formOfContent, replacesOf } from '../lib/draft-content.ts';
import { replaceNotification } from '../api/drafts.ts';
import { ComposerAudience } from './composer-audience.tsx';
import { ContentFields, previewRequestOf, TemplateSendNote } from './composer-content.tsx';

export function Composer() {
  useTitle('Compose');
  const { query, route } = useLocation();
  // ?topic= and ?template= (from a topic's or a template's page) start the form with it.
  const [draft, setDraft] = useState<Draft>(() => ({
    ...EMPTY_DRAFT,
    topics: query.topic === undefined ? [] : [query.topic],
    ...(query.template === undefined ? {} : { contentMode: 'template' as const, template: query.template }),
  }));
  // One key per draft: a double click, or a retry after a lost answer, sends once.
  const [draftKey] = useState(newDraftKey);
  const [apiProblems, setApiProblems] = useState<FieldProblems>({});
  const [audience, setAudience] = useState<AudienceCount | undefined>(undefined);
  const [counting, setCounting] = useState(false);
  const [sending, setSending] = useState(false);
  const [countErrors, setCountErrors] = useState<string[] | undefined>(undefined);
  const [unconfirmed, setUnconfirmed] = useState<Unconfirmed | undefined>(undefined);
  // Send is two steps: the review (what, to whom, when, how fast), then an explicit confirm.
  const [reviewing, setReviewing] = useState(false);
  // The server-side draft being edited (?draft=<id> resumes one).
  const [draftId, setDraftId] = useState<string | undefined>(query.draft);
  const resumed = useLoad(async () => (query.draft === undefined ? undefined : getDraft(query.draft)), [query.draft]);
  // A draft that edits a scheduled notification: confirming replaces that one.
  const replaces = replacesOf(resumed.data?.content);
  useEffect(() => {
    if (resumed.data === undefined) return;
    setDraft(formOfContent(resumed.data.content));
    setDraftId(resumed.data.id);
  }, [resumed.data]);
  const topics = useLoad(async () => dataOf(await api.GET('/api/v1/topics', { params: { query: { limit: 100 } } })), []);
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const { request, problems: formProblems } = useMemo(() => requestOf(draft), [draft]);
  const problems: FieldProblems = { ...apiProblems, ...formProblems };
  const hasTargets = request.targets.length > 0;

  const countAudience = async () => {
    if (!hasTargets) return setAudience(undefined);
    setCounting(true);
    setCountErrors(undefined);
    let answer;
    try {
      answer = await api.POST('/api/v1/notifications/dry-run', { body: { notification: request } });
    } catch (error) {
      setAudience(undefined);
      return setCountErrors([`Could not count the audience. ${messagesOf(error).join(' ')}`]);
    } finally {
      setCounting(false);
    }
    const { data, error, response } = answer;
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

  const review = (event: Event) => {
    event.preventDefault();
    if (Object.keys(formProblems).length === 0) setReviewing(true);
  };

  const send = async (event?: Event) => {
    event?.preventDefault();
    if (Object.keys(formProblems).length > 0 || sending) return;
    setSending(true);
    setApiProblems({});
    let answer;
    try {
      answer =
        replaces === undefined
          ? await api.POST('/api/v1/notifications', { body: { notification: request }, params: { header: { 'idempotency-key': draftKey } } })
          : await replaceNotification(replaces, request, draftKey);
    } catch (error) {
      // No answer: it may or may not have been accepted. The same key asks again without sending twice.
      return setUnconfirmed({ key: draftKey, reasons: messagesOf(error), noAnswer: error instanceof ApiError && error.noAnswer !== undefined });
    } finally {
      setSending(false);
    }
    const { data, error, response } = answer;
    if (data !== undefined) return route(`/console/notifications/${data.data.id}`);
    const messages = errorsOf(error, response.status);
    if (response.status === 409 || response.status >= 500) return setUnconfirmed({ key: draftKey, reasons: messages, noAnswer: false, status: response.status });
    setUnconfirmed(undefined);
    // Refused: back to the form, where each problem shows at its field.
    setReviewing(false);
    setApiProblems(response.status === 422 ? problemsByField(messages) : { form: messages });
  };

  const b = (key: Parameters<typeof bind>[3]) => bind(draft, set, problems, key);
  return (
    <section>
      <h1>Compose a notification</h1>
      <form class="composer" onSubmit={review} noValidate>
        <div class="composer-form">
          <Errors errors={resumed.errors} onRetry={resumed.reload} />
          {replaces === undefined ? null : (
            <p class="notice" data-testid="editing-scheduled">
              Editing the scheduled notification <a href={`/console/notifications/${replaces}`}>{replaces}</a>: confirming sends this instead and cancels that one (if it has not
              fired yet).
            </p>
          )}
          <DraftBar
            form={draft}
            request={request}
            draftId={draftId}
            replaces={replaces}
            onSaved={(id) => {
              setDraftId(id);
              // The address names the draft, so a reload (or a shared link) resumes it; no navigation, so nothing typed is reloaded over.
              window.history.replaceState(window.history.state, '', `/console/compose?draft=${id}`);
            }}
          />
          <ContentFields draft={draft} set={set} problems={problems} b={b} />
          <fieldset>
            <legend>Audience</legend>
            <p class="muted">Each section adds devices (the sections are OR'd); to intersect or exclude, build an expression with the audience builder below.</p>
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
            <Errors errors={topics.errors} onRetry={topics.reload} />
            <Field id="devices" label="Device ids or tokens" problems={problems} hint="One per line.">
              <textarea rows={2} {...b('devices')} />
            </Field>
            <Field id="externalIds" label="Users (external ids)" problems={problems} hint="One per line: every active device of each user.">
              <textarea rows={2} {...b('externalIds')} />
            </Field>
            <Field id="metadata" label="Metadata filter" problems={problems} hint="key=value lines; a device must match every pair.">
              <textarea rows={2} {...b('metadata')} />
            </Field>
            <ComposerAudience
              expression={draft.expression}
              setExpression={(expression) => set({ expression })}
              errors={problems.targets}
              targetIndex={request.targets.length - 1}
              topics={topics.data?.data.map((topic) => topic.name) ?? []}
            />
            <Field
              id="expression"
              label="Expression (JSON)"
              problems={problems}
              hint='One target combining conditions with and / or / not, as JSON: {"and": [{"topic": "promotions"}, {"metadata": {"country": "US"}}, {"not": {"metadata": {"opted_out": {"exists": true}}}}]}. Leaves: topic, device_id, token, external_id, metadata (a value, {"in": […]}, {"exists": …}, {"ne": …}), platform, locale, timezone, segment.'
            >
              <textarea rows={3} class="mono" {...b('expression')} />
            </Field>
            <Errors errors={problems.targets} />
            {hasTargets ? (
              <p class="muted" data-testid="audience-sentence">
                Devices named by any of: {request.targets.map((target) => audienceText(target)).join('; or ')}.
              </p>
            ) : null}
            <div class="audience" aria-live="polite" data-testid="audience">
              {!hasTargets ? (
                'Pick at least one target to see how many devices it reaches.'
              ) : counting ? (
                'Counting the audience…'
              ) : countErrors !== undefined ? (
                <span class="field-errors" data-testid="audience-failed">{countErrors.join(' ')} </span>
              ) : audience === undefined ? (
                ''
              ) : (
                <>
                  Reaches <strong data-testid="audience-total">{formatCount(audience.total)}</strong> active {audience.total === 1 ? 'device' : 'devices'} now ({platformCountsText(audience.by_platform, formatCount)}).
                </>
              )}
              <button type="button" class="link-button" onClick={() => void countAudience()} disabled={!hasTargets || counting}>
                Count again
              </button>
            </div>
          </fieldset>
          <DeliveryFields draft={draft} set={set} problems={problems} b={b} />
          <OptionFields draft={draft} set={set} problems={problems} b={b} />
          <Errors errors={problems.form} />
          <SendOutcome unconfirmed={unconfirmed} sending={sending} onCheck={(event) => void send(event)} />
          {reviewing ? (
            <SendReview request={request} audience={audience} sending={sending} onConfirm={() => void send()} onBack={() => setReviewing(false)} />
          ) : (
            <div class="actions">
              <button type="submit" disabled={sending || Object.keys(formProblems).length > 0}>
                {draft.schedule === 'now' ? 'Review and send' : 'Review and schedule'}
              </button>
            </div>
          )}
        </div>
        <TemplateSendNote shown={draft.contentMode === 'template'} />
        {draft.contentMode === 'template' ? null : <PayloadPreview request={previewRequestOf(request)} platforms={platformsReached(audience?.by_platform)} />}
      </form>
    </section>
  );
}
