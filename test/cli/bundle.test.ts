/**
 * bin/loopcost.js runs the CLI from the build's two linked scripts (dist/cli-bundle.js, the command line, and
 * dist/cli-actions-bundle.js, the commands' work, each through V8's code cache; scripts/bundle-cli.mjs,
 * scripts/bundle-link.mjs, bin/loadCli.js). They are made from the dist/ files tsc wrote in the same
 * `npm run build`: their manifests' hashes must match those files. So is a sweep worker thread's work
 * (dist/sweep-worker-bundle.js, bin/sweepWorker.js): with the dist modules it was made from deleted, the
 * workers still answer. Commands run through bin give byte for byte what `main` from the sources gives in
 * this process (output, errors, exit codes), sweep workers included; a cache that does not fit the bundle
 * is ignored.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

interface Manifest {
  buildId: string;
  distFiles: Record<string, string>;
}

/** `node args` in a new process (cwd, extra environment): its exit status and output. Async, so a test can run several at once. */
function runNode(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd ?? process.cwd(), env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail).on('close', (code) => done({ code, stdout, stderr }));
  });
}

function runBin(argv: string[], cwd = process.cwd(), bin = 'bin/loopcost.js') {
  return runNode([resolve(bin), ...argv], { cwd });
}

const COMMANDS: string[][] = [
  ['--help'],
  ['--version'],
  ['replay', '--help'],
  ['replay', 'scenarios/'],
  ['replay', 'scenarios', '--preset', 'reference', '--per-run'],
  ['whatif', 'scenarios/long-exploration.jsonl', '--grid', 'max-steps=3,5,8'],
  ['sweep', 'scenarios/', '--grid', 'max-steps=4,9', '--workers', '2', '--format', 'json'],
  ['replay', 'scenarios/nope.jsonl'],
  ['replay', 'scenarios', '--max-steps', '-5'],
  ['replay', 'scenarios', '--no-such-flag'],
  ['prices', 'gpt-4o'],
  ['sweep', 'x', '--no-such-flag'],
  ['help', 'check'],
];

/**
 * bin, dist, scenarios and package.json copied to a temporary directory (node_modules linked). Not dist's
 * type declarations and source maps: nothing a command runs reads them (the package leaves the maps out
 * too), and they are two thirds of its files. Each file is a hard link to the build's own (the same bytes
 * at another path, as a copy has them, without copying 13 MB for every copy; a copy where the file system
 * cannot link), except those in `rewritten`, real copies: a test may change those in place. A test may
 * delete any file of the copy; writing to one not in `rewritten` would write to the build itself.
 */
function copyOfTheBuild(rewritten: readonly string[] = []): string {
  const root = join(tempDir(), 'loopcost');
  const run = (path: string) => !/\.(d\.ts|js\.map)$/.test(path);
  const place = (from: string, to: string): void => {
    if (statSync(from).isDirectory()) {
      mkdirSync(to, { recursive: true });
      for (const name of readdirSync(from)) if (run(name)) place(join(from, name), join(to, name));
    } else if (rewritten.includes(from)) copyFileSync(from, to);
    else {
      try {
        linkSync(from, to);
      } catch {
        copyFileSync(from, to);
      }
    }
  };
  for (const entry of ['bin', 'dist', 'scenarios', 'package.json']) place(entry, join(root, entry));
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

describe('the CLI bundle', () => {
  // Every command's run through bin, started at once before these tests (each test compares its own, and
  // the tests that run a copy of the build compare the copy's with these).
  let throughBin: Promise<Awaited<ReturnType<typeof runBin>>[]>;
  beforeAll(() => {
    // Three at a time: the machine's other test files need their share of it too.
    const results: Awaited<ReturnType<typeof runBin>>[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < COMMANDS.length; i = next++) results[i] = await runBin(COMMANDS[i]!);
    };
    throughBin = Promise.all([worker(), worker(), worker()]).then(() => results);
    throughBin.catch(() => undefined);
  });

  /** `argv` (one of COMMANDS) through bin in this directory: its run of those started before the tests. */
  async function binHere(argv: readonly string[]): Promise<Awaited<ReturnType<typeof runBin>>> {
    const at = COMMANDS.findIndex((c) => c.join('\0') === argv.join('\0'));
    expect(at, `${argv.join(' ')} is one of COMMANDS`).toBeGreaterThanOrEqual(0);
    return (await throughBin)[at]!;
  }

  it.each([
    ['cli-bundle', 'dist/cli/main.js', 10],
    ['cli-actions-bundle', 'dist/cli/actions/replay.js', 100],
    ['sweep-worker-bundle', 'dist/cli/actions/sweepWorkerRun.js', 100],
  ])('%s was made from the dist files of this build', (name, module, atLeast) => {
    const manifest = JSON.parse(readFileSync(`dist/${name}.json`, 'utf8')) as Manifest;
    const files = Object.entries(manifest.distFiles);
    expect(files.length).toBeGreaterThan(atLeast);
    expect(Object.keys(manifest.distFiles)).toContain(module);
    for (const [path, hash] of files) expect(createHash('sha256').update(readFileSync(path)).digest('hex'), path).toBe(hash);
    expect(readFileSync(`dist/${name}.js`, 'utf8').split('\n', 1)[0]).toContain(manifest.buildId);
    expect(readFileSync(`dist/${name}.cache`).subarray(0, manifest.buildId.length).toString('latin1')).toBe(manifest.buildId);
  });

  it('the command line holds no action and its modules are not bundled twice (one build id names the pair)', () => {
    const commandLine = JSON.parse(readFileSync('dist/cli-bundle.json', 'utf8')) as Manifest;
    const actions = JSON.parse(readFileSync('dist/cli-actions-bundle.json', 'utf8')) as Manifest;
    expect(actions.buildId).toBe(commandLine.buildId);
    expect(Object.keys(commandLine.distFiles).filter((path) => path.startsWith('dist/cli/actions/'))).toEqual([]);
    expect(Object.keys(commandLine.distFiles).filter((path) => path in actions.distFiles)).toEqual([]);
    expect(readFileSync('dist/cli-actions-bundle.js', 'utf8')).toContain('linked.shellModules["errors.js"]');
  });

  it('help, the version and refused flags need only the command line: the actions script deleted, they answer the same', async () => {
    const root = copyOfTheBuild();
    for (const file of ['cli-actions-bundle.js', 'cli-actions-bundle.cache']) rmSync(join(root, 'dist', file));
    const argvs = [['--help'], ['--version'], ['replay', '--help'], ['sweep', 'x', '--no-such-flag'], ['help', 'check']];
    const [copied, here] = await Promise.all([Promise.all(argvs.map((argv) => runBin(argv, root, join(root, 'bin/loopcost.js')))), Promise.all(argvs.map(binHere))]);
    argvs.forEach((argv, i) => expect(copied[i], argv.join(' ')).toEqual(here[i]));
    const replay = await runBin(['replay', 'scenarios/'], root, join(root, 'bin/loopcost.js'));
    expect(replay.code).toBe(70);
    expect(replay.stderr).toContain('dist/cli-actions-bundle.js is missing (dist/cli-bundle.js is there): run `npm run build`');
  });

  it('an actions script from another build is refused, not run with the wrong command line', async () => {
    const root = copyOfTheBuild(['dist/cli-actions-bundle.js']);
    const file = join(root, 'dist/cli-actions-bundle.js');
    const text = readFileSync(file, 'latin1');
    writeFileSync(file, text.replace(/^(\/\/ loopcost CLI actions bundle )\S+/, '$1another-build'), 'latin1');
    const [replay, here] = await Promise.all([runBin(['replay', 'scenarios/'], root, join(root, 'bin/loopcost.js')), binHere(['replay', 'scenarios/'])]);
    expect(replay.code).toBe(70);
    expect(replay.stderr).toContain('dist/cli-bundle.js and dist/cli-actions-bundle.js are not from the same build');
    expect(here).toMatchObject({ code: 0 });
  });

  it('V8 takes every script from its code cache, each compiled under the flags its cache was made with (a cache it rejects would slow every start, silently)', async () => {
    const probe = `
      const { loadLinkedCli } = require(${JSON.stringify(resolve('bin/loadCli.js'))});
      const { Worker } = require('node:worker_threads');
      (async () => {
        const cli = await loadLinkedCli();
        const code = await cli.main(['sweep', 'scenarios/recorded-pair.jsonl', '--grid', 'max-steps=4,9', '--format', 'json'], { stdout: () => {}, stderr: () => {}, cwd: process.cwd() });
        // A sweep's worker compiles its script after the sweep has set the flags it shares.
        const worker = new Worker("const { parentPort, workerData } = require('node:worker_threads'); parentPort.postMessage(require(workerData).compileBundle('sweep-worker-bundle').cachedDataRejected);", { eval: true, workerData: ${JSON.stringify(resolve('bin/loadCli.js'))} });
        const workerRejected = await new Promise((done) => worker.once('message', done));
        await worker.terminate();
        console.log(JSON.stringify({ code, commandLine: cli.compiled.commandLine.cachedDataRejected, actions: cli.compiled.actions.cachedDataRejected, worker: workerRejected }));
      })();`;
    const r = await runNode(['-e', probe]);
    expect(JSON.parse(r.stdout)).toEqual({ code: 0, commandLine: false, actions: false, worker: false });
  });

  /** A command run through the bundles in a new process: its exit code, and V8's young generation (bytes) before the start and after the command. */
  async function youngGeneration(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; first: number; after: number }> {
    const probe = `
      const { loadLinkedCli } = require(${JSON.stringify(resolve('bin/loadCli.js'))});
      const newSpaceBytes = () => require('node:v8').getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
      (async () => {
        const first = newSpaceBytes();
        const cli = await loadLinkedCli();
        const code = await cli.main(${JSON.stringify(argv)}, { stdout: () => {}, stderr: () => {}, cwd: process.cwd() });
        console.log(JSON.stringify({ code, first, after: newSpaceBytes() }));
      })();`;
    return JSON.parse((await runNode(['-e', probe], { env })).stdout);
  }

  it("a command's young generation is kept small (youngGenerationKeptSmall: a start faults in no pages for it to grow into)", async () => {
    const [kept, grown] = await Promise.all([youngGeneration(['replay', 'scenarios/']), youngGeneration(['replay', 'scenarios/'], { LOOPCOST_YOUNG_GENERATION: 'default' })]);
    expect(kept.code).toBe(0);
    // At most the one doubling a scavenge may make before the actions set the flag (1 → 2 MB here).
    expect(kept.after).toBeLessThanOrEqual(2 * kept.first);
    // What the flag keeps from happening: left to V8's default, the same command grows it further (8 MB here).
    expect(grown.after).toBeGreaterThan(kept.after);
  });

  it.each([
    ['generate', 'scenarios/recursive-verification.yaml', '--runs', '40'],
    ['project', 'scenarios/recursive-verification.yaml', '--runs', '40'],
    ['sweep', 'scenarios/recursive-verification.yaml', '--runs', '40', '--grid', 'max-steps=5,10'],
  ])('%s (as check and calibrate) lets it grow again (letYoungGenerationGrow: its batches of runs and long runs outlive a small one)', async (...argv) => {
    const [grown, kept] = await Promise.all([youngGeneration(argv), youngGeneration(argv, { LOOPCOST_YOUNG_GENERATION: 'small' })]);
    expect(grown.code).toBe(0);
    expect(grown.after).toBeGreaterThan(2 * grown.first);
    // Kept small throughout, to compare: the same command stays within the one doubling.
    expect(kept.after).toBeLessThanOrEqual(2 * kept.first);
  });

  it.each(['cli-bundle', 'cli-actions-bundle', 'sweep-worker-bundle'])('%s is ASCII text (bin/loadCli.js reads it as one-byte text)', (name) => {
    const bytes = readFileSync(`dist/${name}.js`);
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it("a scenario file's problems read the same through the bundle (in loopcost's words: src/zodWords.ts)", async () => {
    const file = join(tempDir(), 'invalid.yaml');
    writeFileSync(file, 'scenario: loopcost.scenario/1\nmodel: gpt-4o\nruns: many\nsystemTokens: -3\npopulation:\n  - { behaviour: healthy, share: 2 }\n');
    const expected = await cli('replay', file);
    expect(expected.stderr).toContain(`field 'runs': is the string "many": give a whole number from 1 to 10,000,000`);
    expect(await runBin(['replay', file])).toEqual(expected);
  });

  it.each(COMMANDS)('loopcost %s: through bin, byte-identical to main from the sources', async (...argv) => {
    const expected = await cli(...argv);
    const got = await binHere(argv);
    expect(got.stderr).toBe(expected.stderr);
    expect(got.stdout).toBe(expected.stdout);
    expect(got.code).toBe(expected.code);
  });

  it('sweep workers run from their bundle: the dist worker modules deleted, the output is the same', async () => {
    const root = copyOfTheBuild();
    for (const file of ['sweepWorkerRun.js', 'sweepWork.js']) rmSync(join(root, 'dist/cli/actions', file));
    const argv = ['sweep', 'scenarios/', '--grid', 'max-steps=4,9,20', '--grid', 'context=full,window:4', '--target-completion', '0.3', '--workers', '3', '--format', 'json'];
    const expected = await cli(...argv);
    expect(expected.code, expected.stderr).toBe(0);
    expect(await runBin(argv, root, join(root, 'bin/loopcost.js'))).toEqual(expected);
  });

  it('runs without its caches, or with ones made for other bundles (the command line\'s and the actions\', both read by `prices`)', async () => {
    // A command of the actions (exit 70 with that script deleted, as replay's), and one of the quickest:
    // it compiles both scripts, so each variant below is tried on both caches in one process.
    const argv = ['prices', 'gpt-4o'];
    const expected = binHere(argv);
    const names = ['cli-bundle', 'cli-actions-bundle'];
    const variant: Record<string, (cache: Buffer) => Buffer | undefined> = {
      'another build id': (cache) => Buffer.concat([Buffer.from('not-this-build\n'), cache.subarray(cache.indexOf(10) + 1)]),
      'truncated data': (cache) => cache.subarray(0, Math.floor(cache.length / 2)),
      'garbage data': (cache) => Buffer.concat([cache.subarray(0, cache.indexOf(10) + 1), Buffer.alloc(4096, 7)]),
      'no cache file': () => undefined,
    };
    // Each variant in its own copy of the build, all run at once.
    const got = await Promise.all(
      Object.values(variant).map((change) => {
        const root = copyOfTheBuild(names.map((name) => `dist/${name}.cache`));
        for (const name of names) {
          const file = join(root, `dist/${name}.cache`);
          const bytes = change(readFileSync(`dist/${name}.cache`));
          if (bytes) writeFileSync(file, bytes);
          else rmSync(file);
        }
        return runBin(argv, root, join(root, 'bin/loopcost.js'));
      }),
    );
    const want = await expected;
    Object.keys(variant).forEach((name, i) => expect(got[i], name).toEqual(want));
  });
});
