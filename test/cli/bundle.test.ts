/**
 * bin/loopcost.js runs the CLI from the build's one-script bundle (dist/cli-bundle.js, through V8's code
 * cache; scripts/bundle-cli.mjs, bin/loadCli.js). The bundle is made from the dist/ files tsc wrote in the
 * same `npm run build`: its manifest's hashes must match those files. So is a sweep worker thread's work
 * (dist/sweep-worker-bundle.js, bin/sweepWorker.js): with the dist modules it was made from deleted, the
 * workers still answer. Commands run through bin give byte for byte what `main` from the sources gives in
 * this process (output, errors, exit codes), sweep workers included; a cache that does not fit the bundle
 * is ignored.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

interface Manifest {
  buildId: string;
  distFiles: Record<string, string>;
}

function runBin(argv: string[], cwd = process.cwd(), bin = 'bin/loopcost.js') {
  const r = spawnSync(process.execPath, [resolve(bin), ...argv], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
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
];

/** bin, dist, scenarios and package.json copied to a temporary directory (node_modules linked). */
function copyOfTheBuild(): string {
  const root = join(tempDir(), 'loopcost');
  for (const entry of ['bin', 'dist', 'scenarios', 'package.json']) cpSync(entry, join(root, entry), { recursive: true });
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

describe('the CLI bundle', () => {
  it.each(['cli-bundle', 'sweep-worker-bundle'])('%s was made from the dist files of this build', (name) => {
    const manifest = JSON.parse(readFileSync(`dist/${name}.json`, 'utf8')) as Manifest;
    const files = Object.entries(manifest.distFiles);
    expect(files.length).toBeGreaterThan(100);
    expect(Object.keys(manifest.distFiles)).toContain(name === 'cli-bundle' ? 'dist/cli/main.js' : 'dist/cli/actions/sweepWorkerRun.js');
    for (const [path, hash] of files) expect(createHash('sha256').update(readFileSync(path)).digest('hex'), path).toBe(hash);
    expect(readFileSync(`dist/${name}.js`, 'utf8').split('\n', 1)[0]).toContain(manifest.buildId);
    for (const cache of name === 'cli-bundle' ? ['cli-bundle', 'cli-bundle.light'] : [name]) {
      expect(readFileSync(`dist/${cache}.cache`).subarray(0, manifest.buildId.length).toString('latin1'), cache).toBe(manifest.buildId);
    }
  });

  it.each(['cli-bundle', 'sweep-worker-bundle'])('%s is ASCII text (bin/loadCli.js reads it as one-byte text)', (name) => {
    const bytes = readFileSync(`dist/${name}.js`);
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it("a scenario file's problems read the same through the bundle (zod's messages, English only in it)", async () => {
    const file = join(tempDir(), 'invalid.yaml');
    writeFileSync(file, 'scenario: loopcost.scenario/1\nmodel: gpt-4o\nruns: many\nsystemTokens: -3\npopulation:\n  - { behaviour: healthy, share: 2 }\n');
    const expected = await cli('replay', file);
    expect(expected.stderr).toContain('Invalid input: expected number, received string');
    expect(runBin(['replay', file])).toEqual(expected);
  });

  it.each(COMMANDS)('loopcost %s: through bin, byte-identical to main from the sources', async (...argv) => {
    const expected = await cli(...argv);
    const got = runBin(argv);
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
    expect(runBin(argv, root, join(root, 'bin/loopcost.js'))).toEqual(expected);
  });

  it.each([
    ['cli-bundle', ['replay', 'scenarios/']],
    ['cli-bundle.light', ['replay', '--help']],
  ])('runs without its cache %s, or with one made for another bundle', (cacheName, argv) => {
    const root = copyOfTheBuild();
    const expected = runBin(argv);
    const cache = readFileSync(`dist/${cacheName}.cache`);
    const variants: [string, Buffer | undefined][] = [
      ['another build id', Buffer.concat([Buffer.from('not-this-build\n'), cache.subarray(cache.indexOf(10) + 1)])],
      ['truncated data', cache.subarray(0, Math.floor(cache.length / 2))],
      ['garbage data', Buffer.concat([cache.subarray(0, cache.indexOf(10) + 1), Buffer.alloc(4096, 7)])],
      ['no cache file', undefined],
    ];
    for (const [name, bytes] of variants) {
      const file = join(root, `dist/${cacheName}.cache`);
      if (bytes) writeFileSync(file, bytes);
      else rmSync(file);
      const got = runBin(argv, root, join(root, 'bin/loopcost.js'));
      expect(got, name).toEqual(expected);
    }
  });
});
