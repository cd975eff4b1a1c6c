/** Scenario files: the bundled ones load, the published schema is in sync, bad files fail as exit 2. */
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { loadAnyScenarioFile, loadScenarioFile, parseScenario } from '../../src/scenario/load.js';
import { scenarioJsonSchema } from '../../src/scenario/schema.js';
import { isScenarioFile } from '../../src/scenario/inputs.js';
import { cli, tempDir } from '../cli/run.js';

const BUNDLED = readdirSync('scenarios').filter((name) => name.endsWith('.yaml')).map((name) => join('scenarios', name));

const GOOD = `scenario: loopcost.scenario/1
model: gpt-4o-mini
systemTokens: 300
goalTokens: 40
brakes: { preset: reference }
population:
  - behaviour: healthy
    weight: 1
    steps: 4
    outputTokens: { kind: lognormal, median: 100, p95: 400 }
    toolResultTokens: 300
`;

describe('scenario files', () => {
  it('every bundled scenario loads and is recognised as a scenario (the JSONL examples are not)', () => {
    expect(BUNDLED.length).toBeGreaterThanOrEqual(8);
    for (const path of BUNDLED) {
      expect(isScenarioFile(path)).toBe(true);
      // The *.check.yaml files name recorded traces for check, and hold no population.
      if (path.endsWith('.check.yaml')) expect(loadAnyScenarioFile(path).traces?.length).toBeGreaterThan(0);
      else expect(loadScenarioFile(path).population.length).toBeGreaterThan(0);
    }
    expect(isScenarioFile('scenarios/reference-sum-of-squares.jsonl')).toBe(false);
    expect(isScenarioFile('test/fixtures/cassettes/openai-chat-tool-retry.yaml')).toBe(false);
  });

  it('JSON is read too, and a bare number is a fixed distribution', () => {
    const scenario = parseScenario(JSON.stringify({ scenario: 'loopcost.scenario/1', model: 'm', systemTokens: 1, population: [{ behaviour: 'sloppy', weight: 2, steps: 3, unparseableShare: 0.1, outputTokens: 5, toolResultTokens: 6 }] }), 'x.json');
    expect(scenario.population[0]).toMatchObject({ behaviour: 'sloppy', steps: 3 });
  });

  it('schema/scenario-v1.schema.json is generated from the validator (npm run schema)', () => {
    expect(JSON.parse(readFileSync('schema/scenario-v1.schema.json', 'utf8'))).toEqual(scenarioJsonSchema());
  });

  it("the JSON Schema carries each field's description (what an editor shows) beside its named definitions", () => {
    const schema = scenarioJsonSchema() as { properties: Record<string, { description?: string; $ref?: string }>; $defs: Record<string, unknown> };
    expect(schema.properties.model!.description).toMatch(/^the model the synthetic runs are priced as/);
    expect(schema.properties.systemTokens).toMatchObject({ description: expect.stringMatching(/^tokens of the system prompt/), $ref: '#/$defs/distribution' });
    expect(Object.keys(schema.$defs).sort()).toEqual(['distribution', 'toolArguments']);
  });

  const bad: [string, (text: string) => string, RegExp][] = [
    ['unknown behaviour', (t) => t.replace('behaviour: healthy', 'behaviour: lazy'), /bad\.yaml:line 7 field 'population\[0\]\.behaviour': unknown behaviour "lazy"; one of healthy/],
    ['weights summing to 0', (t) => t.replace('weight: 1', 'weight: 0'), /field 'population': the weights must sum to a positive number/],
    ['a negative weight', (t) => t.replace('weight: 1', 'weight: -2'), /field 'population\[0\]\.weight': is -2: must not be negative/],
    ['p95 below the median', (t) => t.replace('p95: 400', 'p95: 50'), /line 10 field 'population\[0\]\.outputTokens\.p95': p95 is below the median/],
    ['a negative size', (t) => t.replace('toolResultTokens: 300', 'toolResultTokens: -300'), /field 'population\[0\]\.toolResultTokens': is -300: must not be negative/],
    ['no runs', (t) => `${t}runs: 0\n`, /field 'runs': is 0: must be greater than 0/],
    ['a share above 1', (t) => t.replace('steps: 4', 'steps: 4\n    repeatShare: 1.5'), /field 'population\[0\]\.repeatShare'/],
    ['an impossible uniform', (t) => t.replace('steps: 4', 'steps: { kind: uniform, min: 9, max: 3 }'), /field 'population\[0\]\.steps\.max': no whole number lies between min and max/],
    ['decreasing quantiles', (t) => t.replace('steps: 4', 'steps: { kind: empirical, quantiles: [1, 5, 3] }'), /field 'population\[0\]\.steps\.quantiles': quantiles must not decrease/],
    ['an unknown distribution', (t) => t.replace('kind: lognormal', 'kind: pareto'), /field 'population\[0\]\.outputTokens\.kind': unknown distribution "pareto"/],
    ['a backtrack share of 1', (t) => t.replace(/behaviour: healthy\n(.*\n)*/, 'behaviour: backtracker\n    weight: 1\n    steps: 3\n    backtrackShare: 1\n    outputTokens: 1\n    toolResultTokens: 1\n'), /field 'population\[0\]\.backtrackShare': is 1, not a share from 0 to below 1: write 0\.3 for 30% \(at 1 the agent never gets anywhere\)/],
    ['a steps–size correlation without sizeScale', (t) => t.replace('steps: 4', 'steps: 4\n    stepsSizeRankCorrelation: 0.3'), /field 'population\[0\]\.stepsSizeRankCorrelation': needs sizeScale/],
    ['an unknown field', (t) => t.replace('steps: 4', 'steps: 4\n    stpes: 5'), /field 'population\[0\]': unknown field stpes/],
    ['a missing model', (t) => t.replace('model: gpt-4o-mini\n', ''), /field 'model': missing required field/],
    ['a zero step cap', (t) => t.replace('{ preset: reference }', '{ max-steps: 0 }'), /line 5 field 'brakes\.max-steps'/],
    ['an unknown preset', (t) => t.replace('preset: reference', 'preset: turbo'), /line 5 field 'brakes\.preset': 'turbo' is not a preset/],
    ['a bad window', (t) => t.replace('brakes: { preset: reference }', 'context: { context: "window:0" }'), /field 'context\.context'/],
    ['another format version', (t) => t.replace('scenario/1', 'scenario/2'), /field 'scenario': must be 'loopcost\.scenario\/1'/],
    ['broken YAML', (t) => t.replace('population:', 'population: [').replace('goalTokens: 40', 'goalTokens: [40'), /bad\.yaml:line \d+: not valid YAML/],
    ['an alias bomb', (t) => `${t}expect:\n  a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n  d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`, /bad\.yaml:line \d+: uses YAML aliases past the limit/],
  ];

  for (const [what, edit, message] of bad) {
    it(`${what} → exit 2 naming file and field, nothing written (replay and generate)`, async () => {
      const dir = tempDir();
      const path = join(dir, 'bad.yaml');
      writeFileSync(path, edit(GOOD));
      for (const argv of [['replay', path], ['generate', path]]) {
        // Each command's own kind of output (generate writes JSONL: an --out named .json is refused first).
        const out = join(dir, argv[0] === 'generate' ? 'out.jsonl' : 'out.json');
        const r = await cli(...argv, '--out', out);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).toContain(path);
        expect(r.stderr).not.toMatch(/at .*\.(ts|js):\d+/);
        expect(existsSync(out)).toBe(false);
      }
    });
  }

  it('the good file itself runs', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'good.yaml'), GOOD);
    const r = await cli('replay', join(dir, 'good.yaml'), '--runs', '3', '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).runs).toHaveLength(3);
  });

  it('damaged copies of the bundled scenarios either load or fail as a UserError naming the file', () => {
    const texts = BUNDLED.map((path) => readFileSync(path, 'utf8'));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: texts.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 40 }), fc.constantFrom('', '-', '"', ':', '[', '{', '\n  ', '1e400', 'NaN', ' x'), (i, at, drop, insert) => {
        const text = texts[i]!;
        const cut = Math.floor(at * text.length);
        const damaged = text.slice(0, cut) + insert + text.slice(cut + drop);
        try {
          parseScenario(damaged, 'damaged.yaml');
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          expect(error.issues.every((issue) => issue.file === 'damaged.yaml')).toBe(true);
        }
      }),
      { seed: 9, numRuns: 400 },
    );
  });
});
