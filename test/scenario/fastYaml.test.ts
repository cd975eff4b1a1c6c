/**
 * Scenario files are read by js-yaml first (src/scenario/fastYaml.ts: `yaml`'s parser is slow on a cold
 * start), under a schema that resolves scalars by `yaml`'s core-schema rules, and by `yaml` whenever
 * the quick reading steps aside. Held here: on the bundled scenarios and on random edits of their text
 * (fixed seed), a value js-yaml gives is the value `yaml` gives, and parseAnyScenario gives what `yaml`
 * alone gives — the same scenario, or the same issues (file, line, field, code, message).
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { quickScenarioValue } from '../../src/scenario/fastYaml.js';
import { parseAnyScenario, parseWithYaml } from '../../src/scenario/load.js';

const BUNDLED = readdirSync('scenarios')
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => ({ name, text: readFileSync(join('scenarios', name), 'utf8') }));

/** `yaml`'s value of the text as load.ts reads it, or undefined when it reports errors. */
function yamlValue(text: string): unknown {
  const doc = parseDocument(text, { lineCounter: new LineCounter(), prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) return undefined;
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}

type Outcome = { data: unknown; lines: (number | undefined)[] } | { issues: unknown };
const LINE_PATHS = [['population'], ['population', 0, 'behaviour'], ['brakes'], ['traces', 0], ['expect', 'runs']];

function outcome(read: (text: string, file: string) => ReturnType<typeof parseAnyScenario>, text: string): Outcome {
  try {
    const { lineOf, ...data } = read(text, 'edited.yaml');
    return { data, lines: LINE_PATHS.map((path) => lineOf(path)) };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { issues: error.issues };
  }
}

const SNIPPETS = [
  ':', ': ', '- ', '  ', '\t', "'", '"', '{', '}', '[', ']', ',', '#', ' # note', '1_000', '0b11', '0o17', '0x1F', '.inf', '-.Inf', '.NaN',
  '~', 'null', 'Null', 'True', 'FALSE', 'yes', 'on', '1e3', '1.5e-2', '.5', '5.', '+7', '-0', '|', '>', '\n', 'key: value\n', '2026-01-01',
  '"a\\tb"', "'it''s'", '\\', '%', '?', '---\n', '...\n', 'x: [1, 2]\n', 'y: {a: 1}\n', '  - 3\n', '=', '@', '`', '\u00e9', '"\\u00e9"',
];

const textEdit = fc.record({
  kind: fc.constantFrom('insert', 'deleteLine', 'duplicateLine', 'replaceWord'),
  at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
  snippet: fc.constantFrom(...SNIPPETS),
});

function applyEdit(text: string, { kind, at, snippet }: { kind: string; at: number; snippet: string }): string {
  const lines = text.split('\n');
  const line = Math.floor(at * lines.length);
  if (kind === 'deleteLine') return lines.filter((_, i) => i !== line).join('\n');
  if (kind === 'duplicateLine') return [...lines.slice(0, line + 1), lines[line]!, ...lines.slice(line + 1)].join('\n');
  if (kind === 'replaceWord') {
    const words = [...text.matchAll(/[A-Za-z0-9.]+/g)];
    const word = words[Math.floor(at * words.length)]!;
    return text.slice(0, word.index) + snippet + text.slice(word.index! + word[0].length);
  }
  const position = Math.floor(at * text.length);
  return text.slice(0, position) + snippet + text.slice(position);
}

describe('scenario files read by js-yaml first', () => {
  it('reads every bundled scenario quickly, to the value yaml reads', () => {
    for (const { name, text } of BUNDLED) {
      const quick = quickScenarioValue(text);
      expect(quick, name).toBeDefined();
      expect(quick, name).toEqual(yamlValue(text));
      expect(outcome(parseAnyScenario, text), name).toEqual(outcome(parseWithYaml, text));
    }
  });

  it('on random edits of their text, gives yaml’s value or steps aside, and the same scenario or issues', () => {
    let quickTaken = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: BUNDLED.length - 1 }), fc.array(textEdit, { minLength: 1, maxLength: 3 }), (file, edits) => {
        const text = edits.reduce(applyEdit, BUNDLED[file]!.text);
        const quick = quickScenarioValue(text);
        if (quick !== undefined) {
          quickTaken += 1;
          const slow = yamlValue(text);
          if (slow !== undefined) expect(quick).toEqual(slow);
        }
        expect(outcome(parseAnyScenario, text)).toEqual(outcome(parseWithYaml, text));
      }),
      // 320 edits (were 700) of all 13 files: the quick reading takes about 240 of them, some 30 of those no scenario (issues compared).
      { numRuns: 320, seed: 4242 },
    );
    expect(quickTaken).toBeGreaterThan(200); // the quick reading was taken often enough to be tested
  });

  it('leaves anchors, aliases and tags to yaml (its alias limit applies)', () => {
    expect(quickScenarioValue('a: &x 1\nb: *x\n')).toBeUndefined();
    expect(quickScenarioValue('a: !!str 1\n')).toBeUndefined();
    expect(quickScenarioValue('- 1\n')).toBeUndefined();
    expect(quickScenarioValue('a: 1_000\nb: 0b11\nc: 0o17\nd: 0x1F\ne: .inf\nf: 1e3\ng: ~\nh: yes\n')).toEqual({ a: '1_000', b: '0b11', c: 15, d: 31, e: Infinity, f: 1000, g: null, h: 'yes' });
  });
});
