/** What every injected failure has: which tokens it hits and, optionally, for how many requests. */
export interface TokenRuleBase {
  /** The rule applies to tokens starting with this. */
  prefix: string;
  /** Only the first `times` matching requests get this answer; later ones fall through. Unset: always. */
  times?: number;
  /** Sent as `Retry-After` (seconds) with the error. */
  retryAfterSeconds?: number;
}

export interface RuleBook<R extends TokenRuleBase> {
  /** The first rule for this token that still has uses left, and uses it up. */
  take(token: string): R | undefined;
  replace(rules: readonly R[]): void;
  /** Forgets how often each rule was used, so `times` counts afresh. */
  resetCounts(): void;
  readonly rules: readonly R[];
}

/** Token-prefix error injection shared by both fakes; first match wins, in the order given. */
export function createRuleBook<R extends TokenRuleBase>(initial: readonly R[] = []): RuleBook<R> {
  let rules: readonly R[] = [...initial];
  let uses: number[] = rules.map(() => 0);
  return {
    take(token) {
      for (const [index, rule] of rules.entries()) {
        if (!token.startsWith(rule.prefix)) continue;
        const used = uses[index] ?? 0;
        if (rule.times !== undefined && used >= rule.times) continue;
        uses[index] = used + 1;
        return rule;
      }
      return undefined;
    },
    replace(next) {
      rules = [...next];
      uses = rules.map(() => 0);
    },
    resetCounts() {
      uses = rules.map(() => 0);
    },
    get rules() {
      return rules;
    },
  };
}
