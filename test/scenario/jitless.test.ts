/**
 * Scenario files are validated without zod's compiled fast path (`jitless`, src/scenario/load.ts: a file
 * is validated once, so compiling validators costs start-up and saves nothing). zod's two paths must agree:
 * on the bundled scenarios and on random edits of them (a field dropped, replaced by another kind of value,
 * or an unknown key added, anywhere in the document), the result — data or issues — is the same.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../src/scenario/schema.js';

const BUNDLED: unknown[] = readdirSync('scenarios')
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => parse(readFileSync(join('scenarios', name), 'utf8')) as unknown);

/** Every path to a value inside `value` (objects and arrays), the root included. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...paths(item, [...at, i])));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) out.push(...paths(item, [...at, key]));
  return out;
}

type Edit = { kind: 'drop' } | { kind: 'replace'; with: unknown } | { kind: 'addKey'; key: string; with: unknown };

function edited(value: unknown, path: (string | number)[], edit: Edit): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  if (path.length === 0) return edit.kind === 'replace' ? edit.with : copy;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (edit.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (edit.kind === 'replace') parent[last] = edit.with;
  else if (parent[last] !== null && typeof parent[last] === 'object' && !Array.isArray(parent[last])) (parent[last] as Record<string, unknown>)[edit.key] = edit.with;
  return copy;
}

const anyValue = fc.oneof(
  fc.integer({ min: -5, max: 500 }),
  fc.double({ min: -2, max: 2, noNaN: false }),
  fc.constantFrom('healthy', 'fixed', 'lognormal', 'on', 'off', 'window:3', 'reference', 'gpt-4o', '', 'x'),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.constant({ kind: 'fixed', value: 3 }),
  fc.constant({ kind: 'uniform', min: 5, max: 2 }),
);

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.constant({ kind: 'drop' } as const),
  anyValue.map((value) => ({ kind: 'replace', with: value }) as const),
  fc.tuple(fc.constantFrom('extra', 'weight', 'kind', 'median', 'preset'), anyValue).map(([key, value]) => ({ kind: 'addKey', key, with: value }) as const),
);

const outcome = (value: unknown, jitless: boolean) => {
  const r = scenarioSchema.safeParse(value, { jitless });
  return r.success ? { data: r.data } : { issues: r.error.issues };
};

describe('scenario validation without zod’s compiled fast path', () => {
  it('the bundled scenarios validate to the same data', () => {
    expect(BUNDLED.length).toBeGreaterThanOrEqual(8);
    for (const value of BUNDLED) expect(outcome(value, true)).toEqual(outcome(value, false));
  });

  it('random edits of them give the same data or the same issues (fixed seed)', () => {
    let refused = 0;
    const cases = fc.nat({ max: BUNDLED.length - 1 }).chain((i) => fc.tuple(fc.constant(i), fc.constantFrom(...paths(BUNDLED[i])), fc.array(edit, { minLength: 1, maxLength: 3 })));
    fc.assert(
      fc.property(cases, ([i, path, edits]) => {
        const value = edits.reduce((v, e) => edited(v, path, e), BUNDLED[i]);
        const jitless = outcome(value, true);
        expect(jitless).toEqual(outcome(value, false));
        if ('issues' in jitless) refused++;
      }),
      { numRuns: 600, seed: 7207 },
    );
    // Both kinds of outcome are exercised: most edits break the file, some leave it valid.
    expect(refused).toBeGreaterThan(200);
    expect(refused).toBeLessThan(600);
  });
});
