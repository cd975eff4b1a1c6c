/**
 * The README's examples run as written: every shell block is read top to bottom and each loopcost
 * command (and `npm start`) is run in a fresh temporary copy of the project, in order (an example may
 * use a file an earlier one wrote), and must exit 0. `../shared` (the real recorded runs) is linked
 * beside the copy, as beside the project. Examples that are illustrative only must be listed in
 * ILLUSTRATIVE (keep it short); lines that are not examples (`npm test`: this suite) in NOT_EXAMPLES.
 * A command the README repeats (Start here copies its commands from the sections below) counts as its
 * earlier run when every file it names holds what it held then (examplesRepeating, inputsFingerprint).
 * The first loopcost example, `npm start` and any example the shell does more than split into words run as
 * written (`sh -c`, through bin/loopcost.js: the binary as a user runs it); the others run through the
 * copy's bin/loadCli.js `main` (the bin's own code: its bundles, its code cache, its sweep workers) in one
 * forked process (examplesRunner.cjs), one after another: each example's exit status and standard error,
 * without a Node start and a cold compile for each (~40 s of the ~55 s of CPU the examples took spawned).
 */
import { fork, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Example lines that only illustrate (a placeholder path): skipped, and listed here so the list stays short. */
const ILLUSTRATIVE: string[] = [
  // Listens until Ctrl-C; test/serve/cli.test.ts starts this command and stops it with SIGINT.
  'loopcost serve ../shared/traces/cassettes/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml --port 8787',
];
/** Shell lines in the README that are not examples of loopcost. */
const NOT_EXAMPLES = ['npm ci && npm test'];

interface Example {
  line: number;
  command: string;
}

/** The commands of every ```sh block, continuation lines joined, comments dropped. */
export function readmeExamples(readme: string): Example[] {
  const out: Example[] = [];
  const lines = readme.split('\n');
  let inBlock = false;
  let pending: Example | undefined;
  lines.forEach((raw, i) => {
    if (/^```sh\s*$/.test(raw)) return void (inBlock = true);
    if (inBlock && /^```\s*$/.test(raw)) return void (inBlock = false);
    if (!inBlock) return;
    const text = raw.replace(/\s+#.*$/, '').replace(/^#.*$/, '');
    if (text.trim() === '' && !pending) return;
    const continued = text.endsWith('\\');
    const part = continued ? text.slice(0, -1) : text;
    pending = pending ? { line: pending.line, command: `${pending.command} ${part.trim()}` } : { line: i + 1, command: part.trim() };
    if (!continued) {
      out.push(pending);
      pending = undefined;
    }
  });
  return out;
}

/** Options whose value is a file the command writes (every other file a command names, it reads). */
const WRITE_FLAGS = ['--out', '--junit', '--update-baseline', '--report-dir'];

/** The files a command names (a word with a `/` or a file extension; no flag, no `key=value`), each written or read. */
function filesNamed(command: string): { file: string; writes: boolean }[] {
  const words = command.split(/\s+/).map((word) => word.replace(/^['"]|['"]$/g, ''));
  return words.flatMap((word, k) =>
    !word.startsWith('-') && !word.includes('=') && (word.includes('/') || /\.[A-Za-z][A-Za-z0-9]*$/.test(word)) ? [{ file: word, writes: WRITE_FLAGS.includes(words[k - 1] ?? '') }] : [],
  );
}

/**
 * For each example, the earlier examples it must wait for so that running them at once reads as running
 * them top to bottom. Only files that are not in the fresh copy, or that an example writes, count: an
 * example that writes one waits for every earlier example naming it; one that reads it waits for the
 * earlier ones that write it; either waits for every earlier one when no earlier one names the file as
 * such (it may be written under a default name).
 * Shell redirects, pipes and command lists (whose files no word names) wait for, and are waited for by,
 * all others. An option that writes a file must be in WRITE_FLAGS.
 */
export function examplesWaitFor(commands: readonly string[], existsAtStart: (file: string) => boolean): number[][] {
  const shellOps = hasShellOps;
  const named = commands.map(filesNamed);
  const written = new Set(named.flat().flatMap((f) => (f.writes ? [f.file] : [])));
  return commands.map((command, i) => {
    const earlier = commands.slice(0, i).map((_, k) => k);
    if (shellOps(command) || commands.slice(0, i).some(shellOps)) return earlier;
    const waits = new Set<number>();
    for (const { file, writes } of named[i]!.filter((f) => !existsAtStart(f.file) || written.has(f.file))) {
      const namers = earlier.filter((k) => named[k]!.some((f) => f.file === file && (writes || f.writes)));
      for (const k of namers.length > 0 ? namers : earlier) waits.add(k);
    }
    return [...waits].sort((x, y) => x - y);
  });
}

const hasShellOps = (command: string) => /[<>|;&]/.test(command.replace(/'[^']*'|"[^"]*"/g, ''));

/**
 * For each example, the latest earlier example with the very same command (no shell operator in either),
 * or undefined. Such a repeat (the Start here section copies commands from the sections below) is run
 * again only when the files it names differ from what its earlier twin found (inputsFingerprint): the
 * same command on the same files exits as the twin did.
 */
export function examplesRepeating(commands: readonly string[]): (number | undefined)[] {
  return commands.map((command, i) => {
    if (hasShellOps(command)) return undefined;
    const twin = commands.slice(0, i).lastIndexOf(command);
    return twin < 0 ? undefined : twin;
  });
}

/** What a command's named files hold in cwd (absent, a file's bytes, a directory's files at any depth), as one hash. */
export function inputsFingerprint(command: string, cwd: string): string {
  const hash = createHash('sha256');
  const add = (path: string, shown: string): void => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) hash.update(`${shown}\0absent\0`);
    else if (stat.isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name), `${shown}/${name}`);
    else hash.update(`${shown}\0`).update(readFileSync(path)).update('\0');
  };
  for (const { file } of filesNamed(command)) add(join(cwd, file), file);
  return hash.digest('hex');
}

/** `sh -c shell` in cwd, as a promise of its exit status and standard error. */
function runShell(shell: string, cwd: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', shell], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail).on('close', (status) => done({ status, stderr }));
  });
}

/**
 * The words `sh` splits `command` into (quotes removed; a quoted part joins the text beside it), or
 * undefined where the shell would do more: an operator, a redirect, an expansion, a glob, an escape.
 */
export function shellWords(command: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const quoted = command.slice(i + 1, end);
      if (end < 0 || (c === '"' && /[$`\\!]/.test(quoted))) return undefined;
      word = (word ?? '') + quoted;
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (/[|&;<>()$`\\*?[\]{}~#!]/.test(c)) return undefined;
    else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

interface Exit {
  status: number | null;
  stderr: string;
}

/**
 * examplesRunner.cjs forked in `cwd` (as `node`, none of this worker's flags): `run(argv)` is `loopcost argv`
 * run there by the copy's `main` (in the order asked, one at a time), as its exit status and standard error.
 */
function examplesRunner(cwd: string): { run: (argv: string[]) => Promise<Exit>; close: () => Promise<void> } {
  const child = fork(resolve('test/readme/examplesRunner.cjs'), [], { cwd, execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const pending = new Map<number, (exit: Exit) => void>();
  let ownErrors = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (ownErrors += text));
  child.on('message', ({ id, code, stderr }: { id: number; code: number; stderr: string }) => {
    pending.get(id)?.({ status: code, stderr });
    pending.delete(id);
  });
  const ended = (why: string) => {
    for (const done of pending.values()) done({ status: null, stderr: `the examples runner ${why}: ${ownErrors}` });
    pending.clear();
  };
  child.on('error', (error) => ended(`failed (${error.message})`)).on('exit', (code, signal) => ended(`ended (${signal ?? code})`));
  let next = 0;
  return {
    run: (argv) =>
      new Promise((done) => {
        if (!child.connected) return done({ status: null, stderr: `the examples runner is gone: ${ownErrors}` });
        pending.set(next, done);
        child.send({ id: next++, argv });
      }),
    // Disconnected, it exits: waited for, so that no runner outlives its test.
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        if (child.connected) child.disconnect();
      }),
  };
}

/** Runs each task once those it waits for have finished, at most `atOnce` at a time. */
async function runInOrderOfNeed(tasks: readonly (() => Promise<void>)[], waitsFor: readonly number[][], atOnce: number): Promise<void> {
  const finished = tasks.map(() => false);
  const started = tasks.map(() => false);
  let running = 0;
  await new Promise<void>((allDone, fail) => {
    const startReady = () => {
      if (finished.every(Boolean)) return allDone();
      tasks.forEach((task, i) => {
        if (running >= atOnce || started[i] || !waitsFor[i]!.every((k) => finished[k])) return;
        started[i] = true;
        running++;
        task().then(() => {
          finished[i] = true;
          running--;
          startReady();
        }, fail);
      });
    };
    startReady();
  });
}

describe('README examples', () => {
  const readme = readFileSync('README.md', 'utf8');
  const examples = readmeExamples(readme);

  it('the list of skipped lines is short and every entry is still in the README', () => {
    expect(ILLUSTRATIVE.length + NOT_EXAMPLES.length).toBeLessThanOrEqual(3);
    for (const skipped of [...ILLUSTRATIVE, ...NOT_EXAMPLES]) expect(examples.map((e) => e.command)).toContain(skipped);
    expect(examples.filter((e) => e.command.startsWith('loopcost ')).length).toBeGreaterThanOrEqual(12);
  });

  // The examples run up to three at once, no more than the machine has cores (each is a busy process: on
  // two cores a third only takes turns with the other two, and with the suite's other test files): an
  // example still starts only after every earlier one whose files it reads or rewrites (examplesWaitFor),
  // so each sees the files it would see run top to bottom.
  it('every example exits 0, run top to bottom in a fresh copy', async () => {
    const base = mkdtempSync(join(tmpdir(), 'loopcost-readme-'));
    const root = join(base, 'loopcost');
    // Not dist's type declarations and source maps: no command reads them (the package leaves the maps out too).
    const run = (path: string) => !/\.(d\.ts|js\.map)$/.test(path);
    for (const entry of ['bin', 'dist', 'scenarios', 'schema', 'docs', 'test/fixtures', 'package.json', 'README.md']) cpSync(entry, join(root, entry), { recursive: true, filter: run });
    symlinkSync(resolve('node_modules'), join(root, 'node_modules'), 'dir');
    symlinkSync(resolve('..', 'shared'), join(base, 'shared'), 'dir');
    const failures: { line: number; message: string }[] = [];
    // argv: run by the examples runner; without, as written (`sh -c shell`).
    const runs: { line: number; shell: string; argv?: string[] }[] = [];
    for (const { line, command } of examples) {
      if (ILLUSTRATIVE.includes(command) || NOT_EXAMPLES.includes(command)) continue;
      const loopcost = command.startsWith('loopcost ') ? command.slice('loopcost '.length) : undefined;
      const shell = loopcost !== undefined ? `node bin/loopcost.js ${loopcost}` : command === 'npm ci && npm start' ? 'npm start --silent' : undefined;
      const spawned = loopcost === undefined || !runs.some((r) => r.shell.startsWith('node bin/loopcost.js '));
      const argv = spawned || loopcost === undefined ? undefined : shellWords(loopcost);
      if (shell === undefined) failures.push({ line, message: `README.md:${line}: '${command}' is neither a loopcost example nor listed as skipped` });
      else runs.push({ line, shell, ...(argv ? { argv } : {}) });
    }
    expect(runs.filter((r) => r.argv === undefined && r.shell.startsWith('node bin/loopcost.js ')).length).toBeGreaterThanOrEqual(1);
    const waitsFor = examplesWaitFor(
      runs.map((r) => r.shell),
      (file) => existsSync(join(root, file)),
    );
    // A repeat waits for its twin, and is run only if the twin failed or the files it names changed since.
    const twins = examplesRepeating(runs.map((r) => r.shell));
    twins.forEach((twin, i) => twin !== undefined && waitsFor[i]!.push(twin));
    const found = runs.map(() => ({ fingerprint: '', exitedZero: false }));
    const runner = examplesRunner(root);
    const tasks = runs.map(({ line, shell, argv }, i) => async () => {
      const twin = twins[i];
      if (twins.includes(i) || twin !== undefined) found[i]!.fingerprint = inputsFingerprint(shell, root);
      if (twin !== undefined && found[twin]!.exitedZero && found[twin]!.fingerprint === found[i]!.fingerprint) return void (found[i]!.exitedZero = true);
      const r = argv ? await runner.run(argv) : await runShell(shell, root);
      found[i]!.exitedZero = r.status === 0;
      if (r.status !== 0) failures.push({ line, message: `README.md:${line}: '${examples.find((e) => e.line === line)!.command}' exited ${r.status}: ${r.stderr.trim().split('\n').slice(0, 3).join(' / ')}` });
    });
    try {
      await runInOrderOfNeed(tasks, waitsFor, Math.min(3, availableParallelism()));
    } finally {
      await runner.close();
    }
    expect(failures.sort((a, b) => a.line - b.line).map((f) => f.message)).toEqual([]);
  }, 180_000);
});

describe('reading the README', () => {
  it('an example waits for the earlier ones that write or read the files it names, and for all before a shell operator', () => {
    const atStart = new Set(['bin/loopcost.js', 'scenarios/', '../shared/traces', 'scenarios/a.yaml']);
    const commands = [
      'node bin/loopcost.js replay scenarios/ --out replay.json', // 0: writes a new file
      'node bin/loopcost.js prices derive ../shared/traces --out prices.json', // 1: writes a new file (after every earlier one: one may write it under a default name)
      'node bin/loopcost.js replay ../shared/traces --prices-override prices.json --try max-cost=0.5', // 2: reads 1's file
      'node bin/loopcost.js compare ../shared/traces --prices-override prices.json', // 3: reads it too, beside 2
      'node bin/loopcost.js replay scenarios/a.yaml --grid max-steps=5,10', // 4: files there at the start only
      'node bin/loopcost.js prices derive scenarios/ --out prices.json', // 5: rewrites the file 1 wrote, 2 and 3 read
      'node bin/loopcost.js merge a.jsonl', // 6: reads a file no earlier example names (a default output name)
      "node bin/loopcost.js curve --compare-context 'window:5;mask:10'", // 7: ; quoted, no operator
      'node bin/loopcost.js replay scenarios/ > out.txt', // 8: a redirect
      'node bin/loopcost.js replay scenarios/', // 9: after a redirect
    ];
    const all = (n: number) => Array.from({ length: n }, (_, k) => k);
    expect(examplesWaitFor(commands, (file) => atStart.has(file))).toEqual([[], [0], [1], [1], [], [1, 2, 3], all(6), [], all(8), all(9)]);
    // A file in the fresh copy that an example rewrites counts too: its readers before wait, those after follow.
    const rewrites = ['node bin/loopcost.js replay scenarios/a.yaml', 'node bin/loopcost.js fit ../shared/traces --out scenarios/a.yaml', 'node bin/loopcost.js replay scenarios/a.yaml'];
    expect(examplesWaitFor(rewrites, (file) => atStart.has(file))).toEqual([[], [0], [1]]);
  });

  it('a repeated command is known by its earlier twin, and runs again once a file it names changes', () => {
    const commands = ['node bin/loopcost.js replay a/', 'node bin/loopcost.js prices derive a/ --out p.json', 'node bin/loopcost.js replay a/', 'node bin/loopcost.js replay a/ > o.txt', 'node bin/loopcost.js replay a/ > o.txt', 'node bin/loopcost.js replay a/'];
    expect(examplesRepeating(commands)).toEqual([undefined, undefined, 0, undefined, undefined, 2]);
    const dir = mkdtempSync(join(tmpdir(), 'loopcost-readme-twins-'));
    const command = 'node bin/loopcost.js whatif a/ --prices-override p.json';
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(join(dir, 'a', 'b', 'run.jsonl'), 'one');
    const before = inputsFingerprint(command, dir);
    expect(inputsFingerprint(command, dir)).toBe(before);
    expect(inputsFingerprint('node bin/loopcost.js replay a/', dir)).not.toBe(before); // p.json named, absent
    writeFileSync(join(dir, 'p.json'), '{}');
    const written = inputsFingerprint(command, dir);
    expect(written).not.toBe(before);
    writeFileSync(join(dir, 'a', 'b', 'run.jsonl'), 'two');
    expect(inputsFingerprint(command, dir)).not.toBe(written);
    writeFileSync(join(dir, 'a', 'b', 'run.jsonl'), 'one');
    expect(inputsFingerprint(command, dir)).toBe(written);
    writeFileSync(join(dir, 'a', 'c.jsonl'), 'one');
    expect(inputsFingerprint(command, dir)).not.toBe(written);
  });

  it('splits a command into the words sh gives it, and leaves to sh what it would do more with', () => {
    expect(shellWords("curve --compare-context 'window:5;mask:10' --x=\"a b\"c  --tolerance 5%")).toEqual(['curve', '--compare-context', 'window:5;mask:10', '--x=a bc', '--tolerance', '5%']);
    expect(shellWords("replay '' b")).toEqual(['replay', '', 'b']);
    for (const command of ['replay a > out.txt', 'replay a | head', 'replay a; b', 'replay $HOME', 'replay *.jsonl', 'replay ~/a', 'replay a\\ b', "replay 'a", 'replay "$X"', 'replay a && b', 'replay a # note'])
      expect(shellWords(command), command).toBeUndefined();
  });

  it('joins continued lines and drops comments', () => {
    const text = ['intro', '```sh', '# a comment', 'loopcost a --x 1  # trailing', 'loopcost b \\', '  --try c', '```', '```sh', 'npm test', '```'].join('\n');
    expect(readmeExamples(text)).toEqual([
      { line: 4, command: 'loopcost a --x 1' },
      { line: 5, command: 'loopcost b --try c' },
      { line: 9, command: 'npm test' },
    ]);
  });
});
