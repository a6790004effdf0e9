import { emptyGroup, isGroup, leafOf, newId, type AudienceNode, type GroupNode } from '../../lib/audience-tree.ts';
import type { BuilderContext } from './context.ts';
import { LeafView } from './leaf.tsx';


function Problems({ id, ctx }: { id: string; ctx: BuilderContext }) {
  const messages = ctx.problems.get(id) ?? [];
  if (messages.length === 0) return null;
  return (
    <ul class="field-errors" data-testid="node-errors">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

function GroupView({ node, ctx, root }: { node: GroupNode; ctx: BuilderContext; root: boolean }) {
  const id = `${ctx.idPrefix}-${node.id}`;
  const add = (child: AudienceNode) => ctx.replace(node.id, { ...node, children: [...node.children, child] });
  return (
    <fieldset class={`group group-${node.kind}`} data-testid={root ? 'builder-root' : 'builder-group'}>
      <legend>{root ? 'Devices that match' : 'Group'}</legend>
      <div class="leaf-controls">
        <span class="leaf-control">
          <label for={`${id}-op`}>Match</label>
          <select id={`${id}-op`} value={node.kind} onChange={(event) => ctx.replace(node.id, { ...node, kind: event.currentTarget.value as GroupNode['kind'] })}>
            <option value="and">all of these (AND)</option>
            <option value="or">any of these (OR)</option>
          </select>
        </span>
      </div>
      <Problems id={node.id} ctx={ctx} />
      {node.children.length === 0 ? <p class="muted">No conditions yet.</p> : null}
      <ol class="conditions">
        {node.children.map((child) => (
          <li key={child.id} class="condition" data-testid="condition">
            <NodeView node={child} ctx={ctx} />
            <div class="node-actions">
              {child.kind === 'not' ? (
                <button type="button" class="link-button" onClick={() => ctx.replace(child.id, child.child)}>
                  Include instead
                </button>
              ) : (
                <button type="button" class="link-button" onClick={() => ctx.replace(child.id, { id: newId(), kind: 'not', child })}>
                  {isGroup(child) ? 'Exclude this group (NOT)' : 'Exclude (NOT)'}
                </button>
              )}
              <button type="button" class="link-button" onClick={() => ctx.replace(child.id, undefined)}>
                {isGroup(child) ? 'Remove this group' : 'Remove'}
              </button>
            </div>
          </li>
        ))}
      </ol>
      <div class="node-actions">
        <button type="button" class="secondary" onClick={() => add(leafOf('topic'))}>
          Add condition
        </button>
        <button type="button" class="secondary" onClick={() => add({ ...emptyGroup(node.kind === 'and' ? 'or' : 'and'), children: [leafOf('topic')] })}>
          Add group
        </button>
      </div>
    </fieldset>
  );
}

/** One node of the builder: a group, a NOT around a node, or a condition. */
export function NodeView({ node, ctx, root = false }: { node: AudienceNode; ctx: BuilderContext; root?: boolean }) {
  if (isGroup(node)) return <GroupView node={node} ctx={ctx} root={root} />;
  if (node.kind === 'not') {
    return (
      <div class="not-node" data-testid="builder-not">
        <span class="not-label">Excluding</span>
        <Problems id={node.id} ctx={ctx} />
        <NodeView node={node.child} ctx={ctx} />
      </div>
    );
  }
  return (
    <div class="leaf">
      <LeafView node={node} ctx={ctx} />
      <Problems id={node.id} ctx={ctx} />
    </div>
  );
}
