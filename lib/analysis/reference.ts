import { checkState, outerFringe, type Domain } from '../kst';

/**
 * Looks up domains by ID and memoises state checks and outer fringes per (domain, state): a responses
 * file repeats the same few states thousands of times (models × conditions × orders).
 */
export class ReferenceIndex {
  private readonly byId = new Map<string, Domain>();
  private readonly fringes = new Map<string, string[]>();
  private readonly checks = new Map<string, { ok: true } | { ok: false; reason: string }>();

  constructor(domains: readonly Domain[]) {
    for (const d of domains) this.byId.set(d.id, d);
  }

  domain(id: string): Domain | undefined {
    return this.byId.get(id);
  }

  domainIds(): string[] {
    return [...this.byId.keys()].sort();
  }

  /**
   * Validates IDs against the domain and returns them in canonical order. Calls `fail` with a message
   * naming an unknown or repeated ID.
   */
  canonicalSet(domain: Domain, ids: readonly string[], fail: (problem: string) => never): string[] {
    const seen = new Set<string>();
    for (const id of ids) {
      if (!domain.index.has(id)) fail(`unknown component ${JSON.stringify(id)} in domain ${domain.id}`);
      if (seen.has(id)) fail(`component ${JSON.stringify(id)} listed twice`);
      seen.add(id);
    }
    return [...ids].sort((a, b) => domain.index.get(a)! - domain.index.get(b)!);
  }

  checkState(domain: Domain, state: readonly string[]): { ok: true } | { ok: false; reason: string } {
    const key = `${domain.id}:${state.join(',')}`;
    let result = this.checks.get(key);
    if (!result) {
      const checked = checkState(domain, state);
      result = checked.ok ? { ok: true } : { ok: false, reason: checked.reason };
      this.checks.set(key, result);
    }
    return result;
  }

  outerFringe(domain: Domain, state: readonly string[]): string[] {
    const key = `${domain.id}:${state.join(',')}`;
    let fringe = this.fringes.get(key);
    if (!fringe) {
      fringe = outerFringe(domain, state);
      this.fringes.set(key, fringe);
    }
    return fringe;
  }
}
