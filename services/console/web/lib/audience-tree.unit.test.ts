import { describe, expect, it } from 'vitest';
import { errorsByNode, leafOf, problemsOf, targetOf, treeOf, updateNode, type AudienceNode, type GroupNode } from './audience-tree.ts';

/** A small seeded generator (mulberry32): the same cases on every run, many shapes. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

/** Valid targets of every kind, and some the builder has no control for (kept as JSON nodes). */
function target(next: () => number, depth: number): unknown {
  const roll = next();
  if (depth > 0 && roll < 0.3) return { [pick(next, ['and', 'or'])]: Array.from({ length: Math.floor(next() * 4) + 1 }, () => target(next, depth - 1)) };
  if (depth > 0 && roll < 0.4) return { not: target(next, depth - 1) };
  return pick(next, [
    () => ({ topic: pick(next, ['promotions', 'news', 'a,b']) }),
    () => ({ platform: pick(next, ['ios', 'android', 'web']) }),
    () => ({ locale: 'fr-CA' }),
    () => ({ timezone: 'Europe/Paris' }),
    () => ({ external_id: 'u-1' }),
    () => ({ device_id: '01a251e1-0def-72e9-861e-40d56cb44055' }),
    () => ({ token: 'android-1' }),
    () => ({ segment: 'us-promos' }),
    () => ({ metadata: { country: 'US' } }),
    () => ({ metadata: { tier: { in: ['gold', 'silver, plus'] } } }),
    () => ({ metadata: { opted_out: { exists: next() < 0.5 } } }),
    () => ({ metadata: { plan: { ne: 'free' } } }),
    () => ({ metadata: { country: 'US', plan: 'pro' } }),
    () => 'news',
    () => ({ metadata: { n: 5 } }),
  ])();
}

describe('the audience builder’s tree', () => {
  it('gives back exactly the target it was made from, for thousands of random targets', () => {
    const next = random(47);
    for (let n = 0; n < 3000; n += 1) {
      const original = target(next, 4);
      expect(targetOf(treeOf(original)), JSON.stringify(original)).toEqual(original);
    }
  });

  it('shows what it has controls for as nodes, and keeps the rest as JSON nodes', () => {
    const tree = treeOf({ and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }, { not: { metadata: { opted_out: { exists: true } } } }, 'news'] });
    expect(tree.kind).toBe('and');
    const kinds = (tree as GroupNode).children.map((child) => child.kind);
    expect(kinds).toEqual(['topic', 'metadata', 'not', 'json']);
  });

  it('puts the API’s 422 messages at the node whose path they name, the deepest one', () => {
    const tree = treeOf({ and: [{ topic: 'a' }, { or: [] }, { not: { platform: 'x' } }] }) as GroupNode;
    const messages = ['notification.targets[1].and[1].or: must hold at least one target', 'notification.targets[1].and[2].not.platform: must be ios, android or web', 'notification.targets[0]: unrelated', 'notification.title: required'];
    const { byNode, unplaced } = errorsByNode(tree, 'notification.targets[1]', messages);
    expect(byNode.get(tree.children[1]!.id)).toEqual(['or: must hold at least one target']);
    expect(byNode.get((tree.children[2] as Extract<AudienceNode, { kind: 'not' }>).child.id)).toEqual(['platform: must be ios, android or web']);
    expect(byNode.size).toBe(2);
    expect(unplaced).toEqual(messages.slice(2));
  });

  it('edits: a removed condition leaves its group, a NOT without its condition goes too, a kind change keeps the node', () => {
    const tree = treeOf({ and: [{ topic: 'a' }, { not: { topic: 'b' } }] }) as GroupNode;
    const negated = (tree.children[1] as Extract<AudienceNode, { kind: 'not' }>).child;
    expect(targetOf(updateNode(tree, negated.id, () => undefined)!)).toEqual({ and: [{ topic: 'a' }] });
    const first = tree.children[0]!;
    expect(targetOf(updateNode(tree, first.id, (node) => leafOf('json', node))!)).toEqual({ and: [{ topic: 'a' }, { not: { topic: 'b' } }] });
    expect(targetOf(leafOf('platform'))).toEqual({ platform: 'ios' });
  });

  it('names a JSON node that does not parse', () => {
    const tree = { id: 'j', kind: 'json', text: '{"topic": ' } as const;
    expect(problemsOf(tree).get('j')).toHaveLength(1);
    expect(targetOf(tree)).toBe('{"topic": ');
  });
});
