/**
 * Every constant object or array the package entry exports is frozen through and through (review s24 r5):
 * `NO_BRAKES.maxSteps = 2` made every later replay with `brakes: {}` stop at 2, `REFERENCE_PRESET.maxSteps = 3`
 * changed `--preset reference`, `DEFAULT_READ_LIMITS.maxInputBytes = 10` broke every read. Checked without
 * writing to them here (test files share their modules), and in a child process against the built package.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';

/** Exported objects that are not constants a caller reads: zod schemas, and const enums the compiler inlines. */
const NOT_CONSTANTS = new Set(['expectSchema', 'scenarioSchema', 'Run', 'RunSetting', 'kernel']);

/** The path inside `value` to an object or array that is not frozen, or undefined. */
function unfrozenPath(value: unknown, path: string, seen = new Set<unknown>()): string | undefined {
  if (value === null || typeof value !== 'object' || seen.has(value)) return undefined;
  seen.add(value);
  if (!Object.isFrozen(value)) return path;
  for (const key of Reflect.ownKeys(value)) {
    const found = unfrozenPath((value as Record<PropertyKey, unknown>)[key], `${path}.${String(key)}`, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe('the exported constants are frozen', () => {
  it('every exported object or array, and all it holds', () => {
    const objects = Object.entries(library).filter(([name, value]) => !NOT_CONSTANTS.has(name) && value !== null && typeof value === 'object');
    expect(objects.map(([name]) => name)).toEqual(expect.arrayContaining(['NO_BRAKES', 'REFERENCE_PRESET', 'PRESETS', 'RUNTIME_PRESETS', 'DEFAULT_READ_LIMITS', 'DEFAULT_RETRY', 'FULL_HISTORY', 'STOP_REASONS', 'systemClock']));
    expect(objects.map(([name, value]) => unfrozenPath(value, name)).filter((path) => path !== undefined)).toEqual([]);
  });

  it('their types are read-only: a write to one does not type-check', () => {
    const preset = library.REFERENCE_PRESET;
    const write = () => {
      // @ts-expect-error REFERENCE_PRESET is Readonly<BrakeConfig>
      preset.maxSteps = 50;
    };
    try {
      expect(write).toThrow(TypeError);
    } finally {
      // Were it not frozen, put it back for the other test files that share this module.
      if (!Object.isFrozen(preset)) (preset as library.BrakeConfig).maxSteps = 12;
    }
  });

  it('a caller that writes to them gets a TypeError and later runs are unchanged (the built package)', () => {
    const script = `
      import * as lc from './dist/index.js';
      const tried = (write) => { try { write(); return 'written'; } catch (error) { return error.constructor.name; } };
      const writes = [
        tried(() => { lc.NO_BRAKES.maxSteps = 2; }),
        tried(() => { lc.REFERENCE_PRESET.maxSteps = 3; }),
        tried(() => { lc.PRESETS.reference.maxSteps = 3; }),
        tried(() => { lc.DEFAULT_READ_LIMITS.maxInputBytes = 10; }),
        tried(() => { lc.FULL_HISTORY.kind = 'window'; }),
        tried(() => { lc.STOP_REASONS.push('x'); }),
      ];
      const [trace] = await lc.loadTraceFile('scenarios/long-exploration.jsonl');
      const run = lc.replayTrace(trace, { brakes: {}, strategy: lc.FULL_HISTORY, prices: lc.loadPriceTable() });
      let out = '';
      const code = await lc.main(['replay', 'scenarios/long-exploration.jsonl', '--preset', 'reference', '--format', 'json'], { stdout: (t) => { out += t; }, stderr: () => {}, cwd: process.cwd() });
      console.log(JSON.stringify({ writes, defaults: lc.brakeConfig({}).maxSteps ?? null, steps: run.steps, code, reference: JSON.parse(out).runs[0].steps }));
    `;
    const result = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
    expect(result.writes).toEqual(Array(6).fill('TypeError'));
    expect(result).toMatchObject({ defaults: null, code: 0, reference: 12 });
    expect(result.steps).toBeGreaterThan(12);
  });
});
