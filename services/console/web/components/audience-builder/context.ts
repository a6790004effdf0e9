import type { AudienceNode } from '../../lib/audience-tree.ts';

/** What every node of one builder shares: the names to pick from, the edit, the problems by node. */
export interface BuilderContext {
  /** Makes element ids unique when two builders share a page. */
  idPrefix: string;
  topics: readonly string[];
  segments: readonly string[];
  replace: (id: string, node: AudienceNode | undefined) => void;
  problems: ReadonlyMap<string, readonly string[]>;
}
