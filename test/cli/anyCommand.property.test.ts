/**
 * Every command of the program (read from its own help, so a new command is driven as soon as it is
 * registered), with random bad paths and random flag values: the only exit codes are 0 (it ran) and 2
 * (a user error with a message), never 70 (an internal error) nor 1 (`check` alone exits 1, for a failed
 * expectation, and says so), and no stack trace is printed.
 */
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const dir = tempDir();
const at = (name: string, content?: string | Buffer): string => {
  const path = join(dir, name);
  if (content !== undefined) writeFileSync(path, content);
  return path;
};
const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
mkdirSync(at('empty-dir'));
mkdirSync(at('traces'));
writeFileSync(join(dir, 'traces', 'ok.jsonl'), `${HEADER}\n{"type":"call","inputTokens":20,"outputTokens":5}\n{"type":"end","outcome":"completed"}\n`);

/** Paths a user might give by mistake (and a few good ones), all inside a temporary directory or read-only. */
const PATHS = [
  'scenarios/reference-sum-of-squares.jsonl',
  join(dir, 'traces'),
  at('missing.jsonl'),
  at('empty-dir'),
  at('empty.jsonl', ''),
  at('binary.jsonl', Buffer.from([0x1f, 0x8b, 0, 1, 2, 3, 0xff])),
  at('dup.jsonl', `${HEADER}\n{"type":"call","outputTokens":-5,"outputTokens":40}\n{"type":"end","outcome":"completed"}\n`),
  at('deep.jsonl', `${HEADER}\n{"type":"call","outputTokens":4,"toolCalls":[{"name":"x","resultTokens":1,"arguments":${'['.repeat(50_000)}${']'.repeat(50_000)}}]}\n`),
  at('\u001b[31mred.jsonl', '\u001b[2J'),
  at('cached.jsonl', `${HEADER}\n{"type":"call","inputTokens":1,"cachedInputTokens":9,"outputTokens":1}\n{"type":"end","outcome":"completed"}\n`),
  join(at('empty.jsonl'), 'under-a-file.json'),
  join(dir, 'nomatch-*.jsonl'),
  '/dev/zero',
  '/dev/null',
  '/proc/self/status',
  // A scenario file: the argument generate takes, and a scenario input of replay and whatif.
  'scenarios/reference-sum-of-squares.yaml',
  '',
];
/** Where a command may be told to write: never anything outside the temporary directory. */
const OUT_PATHS = [join(dir, 'out.json'), join(dir, 'out-dir'), at('empty-dir'), join(at('empty.jsonl'), 'x.json'), at('empty.jsonl'), '/sys/loopcost-out.json', '/proc/loopcost/out.json', ''];
const VALUES = ['', ' ', '0', '-1', '1', '2.5', 'NaN', 'Infinity', '1e999', '0x10', ',', '=', 'a=1,,b=2', 'max-steps=1', 'max-steps=1,', 'window:', 'window:0', 'window:2', 'full', 'on', 'model', 'gpt-4o', '2025-02-30', 'x'.repeat(300), '\u001b[31m', '--out'];

interface CommandSpec {
  name: string;
  /** `<inputs...>`: any number of paths; `<scenario>` (generate): one path. */
  takesInputs: boolean;
  takesOnePath: boolean;
  options: { flag: string; value: 'none' | 'path' | 'value' }[];
}

async function helpOf(...argv: string[]): Promise<string> {
  const r = await cli(...argv, '--help');
  expect(r.code).toBe(0);
  return r.stdout;
}

function section(help: string, title: string): string[] {
  const start = help.indexOf(`${title}:\n`);
  if (start < 0) return [];
  const rest = help.slice(start + title.length + 2);
  const end = rest.search(/\n\n|\n\S/);
  return (end < 0 ? rest : rest.slice(0, end)).split('\n');
}

/** The program's commands and each command's options, read from its help. */
async function commands(): Promise<CommandSpec[]> {
  const names = section(await helpOf(), 'Commands')
    .map((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
  return Promise.all(
    names.map(async (name) => {
      const help = await helpOf(name);
      const options = section(help, 'Options')
        .map((line) => /^ {2}(?:-\w, )?(--[\w-]+)(?: ([<[][^>\]]+[>\]]))?/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null && m[1] !== '--help')
        .map((m) => ({ flag: m[1]!, value: m[2] === undefined ? ('none' as const) : /file|dir/.test(m[2]) ? ('path' as const) : ('value' as const) }));
      const usage = help.split('\n')[0]!;
      return { name, takesInputs: /<(inputs|scenarios)\.\.\./.test(usage), takesOnePath: /<scenario>/.test(usage), options };
    }),
  );
}

describe('every command, random bad paths and flags', async () => {
  const specs = await commands();

  it('finds the commands in the help', () => {
    expect(specs.map((s) => s.name)).toEqual(expect.arrayContaining(['replay', 'whatif', 'compare', 'import', 'curve', 'prices']));
  });

  /** Random command lines of one command: its inputs (paths) and up to four of its flags with random values. */
  function argvsOf(spec: CommandSpec): fc.Arbitrary<string[]> {
    const option = fc.integer({ min: 0, max: Math.max(0, spec.options.length - 1) }).chain((k) => {
      const opt = spec.options[k];
      if (!opt) return fc.constant([] as string[]);
      if (opt.value === 'none') return fc.constant<string[]>([opt.flag]);
      const value = opt.value === 'path' ? fc.constantFrom(...OUT_PATHS) : fc.oneof(fc.constantFrom(...VALUES), fc.constantFrom(...PATHS.slice(0, 3)));
      return value.map((v): string[] => [opt.flag, v]);
    });
    return fc
      .tuple(
        spec.takesInputs
          ? fc.array(fc.constantFrom(...PATHS), { minLength: 0, maxLength: 3 })
          : spec.takesOnePath
            ? fc.constantFrom(...PATHS).map((path) => [path])
            : fc.constant([] as string[]),
        fc.array(option, { maxLength: 4 }),
      )
      // serve listens until Ctrl-C: --check makes it stop after checking what it would serve.
      .map(([inputs, options]) => [spec.name, ...inputs, ...options.flat(), ...(spec.name === 'serve' ? ['--check'] : [])]);
  }

  /** A command's own seed (from its name): a command or flag added elsewhere leaves its draws as they were. */
  const seedOf = (name: string): number => [...name].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0, 2166136261) ^ 20261204;

  it('exits 0 or 2, never an internal error (70), and prints no stack', async () => {
    const seen = { 0: 0, 2: 0 };
    for (const spec of specs) {
      await fc.assert(
        fc.asyncProperty(argvsOf(spec), async (argv) => {
          const r = await cli(...argv);
          if (r.code === 0 || r.code === 2) seen[r.code] += 1;
          // check exits 1 when an expectation fails under the flags given: a result, said as such.
          if (r.code === 1 && argv[0] === 'check' && /^loopcost check: FAIL/.test(r.stdout)) return void (seen[0] += 1);
          if (r.code !== 0 && r.code !== 2) throw new Error(`exit ${r.code} for ${JSON.stringify(argv)}:\n${r.stderr}`);
          expect(r.stderr).not.toMatch(/internal error|\n\s+at \S+ \(/);
          // The error has its own 'loopcost: ' line (after the list of skipped files when --skip-bad skipped some).
          if (r.code === 2) expect(r.stderr).toMatch(/^loopcost: /m);
        }),
        // 32 command lines a command, each command on its own seed.
        { numRuns: 32, seed: seedOf(spec.name) },
      );
    }
    // Both outcomes are exercised: the generators reach runs that succeed as well as mistakes.
    expect(seen[0]).toBeGreaterThanOrEqual(5);
    expect(seen[2]).toBeGreaterThan(50);
  });
});
