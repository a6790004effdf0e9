/**
 * White space the local store refuses at either end of a field path element
 * (FerretDB's `strings.TrimSpace`: Unicode White_Space, NEL included); a
 * metadata filter is matched as the path `metadata.<key>`.
 */
const EDGE_SPACE = /^[\s\u0085]|[\s\u0085]$/u;

/**
 * Problems with a send's targets the schema cannot express, each naming the
 * field (pure): a metadata filter key with white space at either end cannot
 * be evaluated by the store, so the send is refused (422) instead of being
 * accepted and then stuck `queued`.
 */
export function targetProblems(input: { targets?: unknown } | undefined): string[] {
  if (!Array.isArray(input?.targets)) return [];
  const problems: string[] = [];
  input.targets.forEach((target: unknown, index) => {
    const metadata = (target as { metadata?: unknown } | null)?.metadata;
    if (typeof metadata !== 'object' || metadata === null) return;
    for (const key of Object.keys(metadata)) {
      if (EDGE_SPACE.test(key)) problems.push(`notification.targets[${index}].metadata key ${JSON.stringify(key)} must not start or end with white space`);
    }
  });
  return problems;
}
