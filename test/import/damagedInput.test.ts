/**
 * Damaged copies of real inputs (every format: the shared recordings, test fixtures, bundled scenarios), cut short,
 * with characters dropped or inserted, numbers made negative or quoted, keys renamed, and the hostile kinds
 * of issue 14 — a value nested 300 or 3,000 levels deep, a YAML alias ladder, counts past 2^53, cached
 * or reasoning tokens past their whole, a key given twice, terminal escapes, and size limits cut small:
 * each either imports or fails as a UserError (exit 2 with file, line, field, printable on a terminal),
 * never as an internal error; and whatever imports replays, and what-ifs through the fast path say what
 * the readable loop says.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import { UserError } from '../../src/errors.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { whatIf } from '../../src/replay/whatif.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { tempDir } from '../cli/run.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// test/fixtures/heldout: 145 native runs (10 MB of text) already covered as a format by the native fixtures.
const SOURCES = [...filesUnder('../shared/traces'), ...filesUnder('test/fixtures').filter((path) => !path.includes('/prices/') && !path.includes('/heldout/')), ...filesUnder('scenarios')].map((path) => {
  const raw = readFileSync(path);
  const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
  return { path, text: bytes.toString('utf8'), ext: /(\.[a-z]+)(\.gz)?$/.exec(path)?.[1] ?? '.txt' };
});

const INSERTS = ['"', '{', '}', ']', '-1', 'null', '"x"', '1e400', 'NaN', '\n', ','];

/** One damage, at positions given as fractions of the text. */
const damage = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), length: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.constantFrom(...INSERTS) }),
  fc.record({ kind: fc.constant('numbers' as const), nth: fc.integer({ min: 1, max: 40 }), how: fc.constantFrom('negative', 'quoted', 'fraction') }),
  fc.record({ kind: fc.constant('key' as const), nth: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('deep' as const), nth: fc.integer({ min: 1, max: 40 }), levels: fc.constantFrom(300, 3000), open: fc.constantFrom('[', '{"a":') }),
  fc.record({ kind: fc.constant('aliases' as const) }),
  fc.record({ kind: fc.constant('magnitude' as const), nth: fc.integer({ min: 1, max: 40 }), value: fc.constantFrom('1e308', '9223372036854775807', '1152921504606846976', '9007199254740993') }),
  fc.record({ kind: fc.constant('cross' as const), nth: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), nth: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('escape' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.constantFrom('\u001b[2J', '\\u001b[31m', '\u0007\r', '\\u009b31m') }),
);
type Damage = typeof damage extends fc.Arbitrary<infer T> ? T : never;

function apply(text: string, d: Damage): string {
  const at = (fraction: number) => Math.floor(fraction * text.length);
  switch (d.kind) {
    case 'cut':
      return text.slice(0, at(d.at));
    case 'drop':
      return text.slice(0, at(d.at)) + text.slice(at(d.at) + d.length);
    case 'insert':
      return text.slice(0, at(d.at)) + d.text + text.slice(at(d.at));
    case 'numbers': {
      let seen = 0;
      return text.replace(/\d+/g, (m) => (++seen % d.nth !== 0 ? m : d.how === 'negative' ? `-${m}` : d.how === 'quoted' ? `"${m}"` : `${m}.5`));
    }
    case 'key': {
      let seen = 0;
      return text.replace(/"([a-z_]+)":/gi, (m, key: string) => (++seen % d.nth !== 0 ? m : `"${key}_x":`));
    }
    case 'deep': {
      let seen = 0;
      const close = d.open === '[' ? ']' : '}';
      return text.replace(/\d+/g, (m) => (++seen % d.nth !== 0 ? m : `${d.open.repeat(d.levels)}${m}${close.repeat(d.levels)}`));
    }
    case 'aliases':
      // A "billion laughs" ladder in front: YAML readers must refuse it; other formats are no longer valid.
      return `${['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]', ...Array.from({ length: 9 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(9).fill(`*l${i}`).join(', ')}]`)].join('\n')}\n${text}`;
    case 'magnitude': {
      let seen = 0;
      return text.replace(/\d+/g, (m) => (++seen % d.nth !== 0 ? m : d.value));
    }
    case 'cross': {
      // A part made larger than its whole: cached (cache read, cache creation) or reasoning tokens.
      let seen = 0;
      return text.replace(/("[\w.]*(cache|cached|reasoning)[\w.]*"\s*:\s*(\{\s*"intValue"\s*:\s*)?"?)(\d+)/gi, (m, head: string) => (++seen % d.nth !== 0 ? m : `${head}999999999`));
    }
    case 'duplicate': {
      let seen = 0;
      return text.replace(/"([A-Za-z_]+)"(\s*):(\s*)(-?\d+)/g, (m, key: string, a: string, b: string, value: string) => (++seen % d.nth !== 0 ? m : `"${key}"${a}:${b}-1, "${key}"${a}:${b}${value}`));
    }
    case 'escape':
      return text.slice(0, Math.floor(d.at * text.length)) + d.text + text.slice(Math.floor(d.at * text.length));
  }
}

/** Read limits cut small now and then, so the size refusals are exercised on every format. */
const limits = fc.constantFrom(undefined, { maxLineBytes: 16 * 1024 }, { maxInputBytes: 64 * 1024 }, { maxLineBytes: 1024 * 1024 });

/** Control characters other than the line break between issues. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function expectUserError(error: unknown, path: string): void {
  if (!(error instanceof UserError)) throw error;
  expect(error.issues.length).toBeGreaterThan(0);
  expect(error.message).not.toMatch(RAW_CONTROL);
  expect(error.issues.every((issue) => issue.file?.startsWith(path) || issue.file === '<command line>')).toBe(true);
}

/** The value, or the user error's issues (an unknown model is found at replay, not at import). */
function outcomeOf<T>(run: () => T): { value: T } | { issues: UserError['issues'] } {
  try {
    return { value: run() };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { issues: error.issues };
  }
}

describe('damaged inputs of every format', () => {
  const prices = loadPriceTable();
  const settings = ['max-steps=3', 'max-cost=0.01,budget-mode=predict', 'max-repeat=2', 'context-window=model', 'timeout=10'].map((spec) => ({ name: spec, brakes: brakesFromSpec(spec) }));
  const dir = tempDir();

  it('import or a UserError, never an internal error; what imports replays, fast = readable', async () => {
    expect(SOURCES.length).toBeGreaterThan(60);
    let userErrors = 0;
    let imported = 0;
    /** What the cases covered: each damage kind, format and read limit by outcome ('kind aliases: refused'). */
    const covered = new Set<string>();
    const cover = (outcome: string, d: Damage, source: (typeof SOURCES)[number], readLimits: unknown) =>
      [`kind ${d.kind}`, `format ${source.ext}`, `limits ${JSON.stringify(readLimits ?? null)}`].forEach((what) => covered.add(`${what}: ${outcome}`));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: SOURCES.length - 1 }), damage, limits, async (index, d, readLimits) => {
        const source = SOURCES[index]!;
        const path = join(dir, `damaged${source.ext}`);
        writeFileSync(path, apply(source.text, d));
        let traces;
        try {
          traces = await loadTraceFile(path, readLimits === undefined ? {} : { limits: readLimits });
        } catch (error) {
          expectUserError(error, path);
          userErrors += 1;
          cover('refused', d, source, readLimits);
          return;
        }
        imported += 1;
        cover('imported', d, source, readLimits);
        const options = { strategy: { kind: 'full' as const }, prices };
        const fast = outcomeOf(() => whatIf(traces, settings, options));
        expect(fast).toEqual(outcomeOf(() => whatIf(traces, settings, { ...options, engine: 'readable' })));
        for (const trace of traces) outcomeOf(() => replayTrace(trace, { brakes: settings[0]!.brakes, strategy: { kind: 'window', windowSteps: 2 }, prices, keepSteps: true }));
        // What was accepted can be written as native JSONL and read back unchanged. A file that read cleanly
        // with no model call has nothing to write (a native file of no runs is refused when read, and
        // `import` refuses such inputs: test/cli/importNoRuns.test.ts).
        if (traces.length === 0) return;
        const again = join(dir, 'again.jsonl');
        writeFileSync(again, writeNativeTraces(traces));
        expect((await loadTraceFile(again)).map((t) => t.calls)).toEqual(traces.map((t) => t.calls));
      }),
      // 320 cases (were 600) cover what the 600 did, the last a damaged .json file that still imports (case 312).
      { numRuns: 320, seed: 20261202 },
    );
    const kinds = ['cut', 'drop', 'insert', 'numbers', 'key', 'deep', 'aliases', 'magnitude', 'cross', 'duplicate', 'escape'];
    const expected = [
      ...kinds.map((kind) => `kind ${kind}: refused`),
      // An alias ladder is refused in every format.
      ...kinds.filter((kind) => kind !== 'aliases').map((kind) => `kind ${kind}: imported`),
      ...['.json', '.jsonl', '.md', '.py', '.traj', '.yaml', '.yml'].map((ext) => `format ${ext}: refused`),
      ...['.json', '.jsonl', '.traj', '.yaml'].map((ext) => `format ${ext}: imported`),
      ...['null', '{"maxLineBytes":16384}', '{"maxInputBytes":65536}', '{"maxLineBytes":1048576}'].map((limit) => `limits ${limit}: refused`),
    ];
    for (const what of expected) expect(covered, `no case covered ${what}: draw more`).toContain(what);
    // Both branches are exercised.
    expect(userErrors).toBeGreaterThan(20);
    expect(imported).toBeGreaterThan(20);
  });
});
