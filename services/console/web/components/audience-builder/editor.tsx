import './audience-builder.css';
import { useMemo, useRef, useState } from 'preact/hooks';
import { audienceText } from '../../lib/audience-text.ts';
import { emptyGroup, errorsByNode, isGroup, problemsOf, targetOf, treeOf, updateNode, type AudienceNode } from '../../lib/audience-tree.ts';
import type { BuilderContext } from './context.ts';
import { CountView } from './count-view.tsx';
import { NodeView } from './node.tsx';
import { useAudienceCount } from './use-count.ts';

/** An AND group with no conditions is no target at all (nothing to send to yet). */
export const isEmpty = (node: AudienceNode) => isGroup(node) && node.children.length === 0;

function mergeProblems(a: Map<string, string[]>, b: Map<string, string[]>): Map<string, string[]> {
  const merged = new Map(a);
  for (const [id, messages] of b) merged.set(id, [...(merged.get(id) ?? []), ...messages]);
  return merged;
}

export interface AudienceEditorProps {
  /** The target shown (undefined: none yet). A change from outside (the JSON field) is shown when it is not the builder's own. */
  value: unknown;
  onChange: (target: unknown) => void;
  /** The API's 422 messages, and the path of this target in them (`notification.targets[2]`, `filter`). */
  errors?: readonly string[];
  errorPrefix: string;
  topics: readonly string[];
  segments: readonly string[];
  /** The builder's own count by platform (the composer counts the whole send instead). */
  showCount?: boolean;
  idPrefix?: string;
}

/**
 * The audience builder: AND / OR groups, NOT, every kind of condition, the
 * plain sentence of what the expression means, the live count by platform,
 * and the API's problems at the node they name.
 */
export function AudienceEditor({ value, onChange, errors = [], errorPrefix, topics, segments, showCount = true, idPrefix = 'ab' }: AudienceEditorProps) {
  const root = useRef<AudienceNode | undefined>(undefined);
  const [, rerender] = useState(0);
  // The JSON of the last target the builder gave out or was given: an equal value is the builder's own echo, kept as drawn.
  const emitted = useRef<string | undefined>(undefined);
  const valueKey = value === undefined ? '' : JSON.stringify(value);
  if (root.current === undefined || valueKey !== emitted.current) {
    root.current = value === undefined ? emptyGroup() : treeOf(value);
    emitted.current = valueKey;
  }
  const shown = root.current;
  const target = isEmpty(shown) ? undefined : targetOf(shown);
  const local = useMemo(() => problemsOf(shown), [shown]);
  const { count, recount } = useAudienceCount(target, showCount && target !== undefined && local.size === 0);
  const refused = count.state === 'refused' ? count.messages : [];
  // The builder's own count sends this target alone, as the first of the dry run's targets.
  const given = errorsByNode(shown, errorPrefix, errors);
  const counted = errorsByNode(shown, 'notification.targets[0]', refused);
  const apiProblems = mergeProblems(given.byNode, counted.byNode);
  // Messages of the page's own about no node (other targets, the name) are the page's to show; the count's are shown here.
  const elsewhere = counted.unplaced;

  const change = (next: AudienceNode) => {
    root.current = next;
    rerender((n) => n + 1);
    const nextTarget = isEmpty(next) ? undefined : targetOf(next);
    emitted.current = nextTarget === undefined ? '' : JSON.stringify(nextTarget);
    onChange(nextTarget);
  };
  const ctx: BuilderContext = {
    idPrefix,
    topics,
    segments,
    problems: mergeProblems(local, apiProblems),
    replace: (id, node) => change(updateNode(shown, id, () => node) ?? emptyGroup()),
  };
  const grouped = isGroup(shown);
  return (
    <div class="audience-builder" data-testid="audience-builder">
      <NodeView node={shown} ctx={ctx} root />
      {grouped ? null : (
        <button type="button" class="secondary" onClick={() => change({ ...emptyGroup('and'), children: [shown] })}>
          Combine with more conditions
        </button>
      )}
      {elsewhere.length === 0 ? null : (
        <ul class="field-errors" data-testid="builder-errors">
          {elsewhere.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      <p class="audience-sentence" data-testid="builder-sentence">
        {target === undefined ? 'Add a condition to say who this reaches.' : `In words: ${audienceText(target)}.`}
      </p>
      {showCount && target !== undefined ? <CountView count={local.size > 0 ? { state: 'idle' } : count} recount={recount} empty="Fix the JSON above to count." /> : null}
    </div>
  );
}
