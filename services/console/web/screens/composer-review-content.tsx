import type { NotificationRequest } from '../lib/draft.ts';

const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));

/** The review's account of a template send or an A/B test: which template (and version), the variables, each variant side by side, holdout and test. */
export function ContentReview({ request }: { request: NotificationRequest }) {
  if (request.template !== undefined) {
    return (
      <>
        <h3>Template</h3>
        <dl class="facts" data-testid="review-template">
          <dt>Template</dt>
          <dd>
            <code>{request.template}</code> {request.template.includes('@') ? '(this version)' : '(its newest version, pinned when the send is accepted)'}
          </dd>
          <dt>Variables</dt>
          <dd class="mono">{request.variables === undefined ? 'none' : json(request.variables)}</dd>
        </dl>
        <p class="muted">Each device gets the template's content in its language (else default), rendered with these variables and its own values.</p>
      </>
    );
  }
  if (request.variants === undefined) return null;
  return (
    <>
      <h3>A/B test</h3>
      <div class="variants" data-testid="review-variants">
        {request.variants.map((variant) => (
          <div class="variant" key={variant.name} data-testid={`review-variant-${variant.name}`}>
            <strong>{variant.name}</strong>
            <p>
              {variant.template === undefined ? (
                <>
                  <strong>{variant.title}</strong> {variant.body}
                </>
              ) : (
                <>
                  Template <code>{variant.template}</code>
                  {variant.variables === undefined ? null : <span class="mono"> {json(variant.variables)}</span>}
                </>
              )}
            </p>
          </div>
        ))}
      </div>
      <dl class="facts" data-testid="review-split">
        <dt>Holdout</dt>
        <dd>{request.holdout_percent ?? 0} % of the audience gets nothing (reported held_out)</dd>
        <dt>Test</dt>
        <dd>
          {request.test === undefined
            ? 'Everyone outside the holdout takes part; nothing is decided'
            : `${request.test.percent} % of the rest tries the variants; after ${request.test.decide_after} the best open rate (if significant, else ${request.fallback ?? request.variants[0]?.name ?? 'the first'}) goes to the remainder`}
        </dd>
      </dl>
    </>
  );
}
