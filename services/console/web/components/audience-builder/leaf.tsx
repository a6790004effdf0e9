import { LEAF_KINDS, leafOf, type LeafNode as Leaf, type MetadataTest } from '../../lib/audience-tree.ts';
import type { BuilderContext } from './context.ts';

const PLACEHOLDERS: Record<string, string> = { locale: 'fr or fr-CA', timezone: 'Europe/Paris', external_id: 'u-1842', device_id: 'a device id (UUID)', token: 'a device token' };
const LABELS: Record<string, string> = { locale: 'Locale (BCP 47; fr matches fr-CA)', timezone: 'Time zone (IANA)', external_id: 'User', device_id: 'Device id', token: 'Device token' };
const TESTS: ReadonlyArray<{ test: MetadataTest; label: string }> = [
  { test: 'eq', label: 'is' },
  { test: 'ne', label: 'is not (or not set)' },
  { test: 'in', label: 'is one of' },
  { test: 'exists', label: 'is set / not set' },
];

/** A select of names (topics, segments), keeping a name typed earlier that is not in the list. */
function NameSelect({ id, label, value, names, onChange }: { id: string; label: string; value: string; names: readonly string[]; onChange: (value: string) => void }) {
  return (
    <span class="leaf-control">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        <option value="">Pick one…</option>
        {[...new Set([...names, ...(value === '' ? [] : [value])])].map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </span>
  );
}

function Text({ id, label, value, placeholder, onInput, wide }: { id: string; label: string; value: string; placeholder?: string; onInput: (value: string) => void; wide?: boolean }) {
  return (
    <span class={`leaf-control${wide === true ? ' wide' : ''}`}>
      <label for={id}>{label}</label>
      <input id={id} type="text" value={value} placeholder={placeholder} onInput={(event) => onInput(event.currentTarget.value)} />
    </span>
  );
}

function MetadataControls({ node, ctx }: { node: Extract<Leaf, { kind: 'metadata' }>; ctx: BuilderContext }) {
  const set = (patch: Partial<typeof node>) => ctx.replace(node.id, { ...node, ...patch });
  const id = `${ctx.idPrefix}-${node.id}`;
  return (
    <>
      <Text id={`${id}-key`} label="Key" value={node.key} placeholder="country" onInput={(key) => set({ key })} />
      <span class="leaf-control">
        <label for={`${id}-test`}>Test</label>
        <select id={`${id}-test`} value={node.test} onChange={(event) => set({ test: event.currentTarget.value as MetadataTest })}>
          {TESTS.map(({ test, label }) => (
            <option key={test} value={test}>
              {label}
            </option>
          ))}
        </select>
      </span>
      {node.test === 'exists' ? (
        <span class="leaf-control">
          <label for={`${id}-exists`}>Set?</label>
          <select id={`${id}-exists`} value={String(node.exists)} onChange={(event) => set({ exists: event.currentTarget.value === 'true' })}>
            <option value="true">set</option>
            <option value="false">not set</option>
          </select>
        </span>
      ) : node.test === 'in' ? (
        <Text id={`${id}-values`} label="Values (one per comma)" value={node.values.join(', ')} placeholder="gold, silver" onInput={(text) => set({ values: text.split(',').map((value) => value.trim()) })} wide />
      ) : (
        <Text id={`${id}-value`} label="Value" value={node.values[0] ?? ''} placeholder="US" onInput={(value) => set({ values: [value] })} />
      )}
    </>
  );
}

/** One condition: its kind, then the controls of that kind. */
export function LeafView({ node, ctx }: { node: Leaf; ctx: BuilderContext }) {
  const id = `${ctx.idPrefix}-${node.id}`;
  const setValue = (value: string) => ctx.replace(node.id, { ...node, value } as Leaf);
  return (
    <div class="leaf-controls">
      <span class="leaf-control">
        <label for={`${id}-kind`}>Condition</label>
        <select id={`${id}-kind`} value={node.kind} onChange={(event) => ctx.replace(node.id, leafOf(event.currentTarget.value as Leaf['kind'], node))}>
          {LEAF_KINDS.map(({ kind, label }) => (
            <option key={kind} value={kind}>
              {label}
            </option>
          ))}
        </select>
      </span>
      {node.kind === 'topic' ? (
        <NameSelect id={`${id}-value`} label="Topic" value={node.value} names={ctx.topics} onChange={setValue} />
      ) : node.kind === 'segment' ? (
        <NameSelect id={`${id}-value`} label="Segment" value={node.value} names={ctx.segments} onChange={setValue} />
      ) : node.kind === 'platform' ? (
        <span class="leaf-control">
          <label for={`${id}-value`}>Platform</label>
          <select id={`${id}-value`} value={node.value} onChange={(event) => setValue(event.currentTarget.value)}>
            <option value="ios">iOS</option>
            <option value="android">Android</option>
            <option value="web">Web</option>
            <option value="huawei">Huawei</option>
          </select>
        </span>
      ) : node.kind === 'metadata' ? (
        <MetadataControls node={node} ctx={ctx} />
      ) : node.kind === 'json' ? (
        <span class="leaf-control wide">
          <label for={`${id}-value`}>Target as JSON</label>
          <textarea id={`${id}-value`} class="mono" rows={2} value={node.text} onInput={(event) => ctx.replace(node.id, { ...node, text: event.currentTarget.value })} />
        </span>
      ) : (
        <Text id={`${id}-value`} label={LABELS[node.kind] ?? node.kind} value={node.value} placeholder={PLACEHOLDERS[node.kind]} onInput={setValue} wide={node.kind === 'token' || node.kind === 'device_id'} />
      )}
    </div>
  );
}
