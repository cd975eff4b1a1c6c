/**
 * The README's examples run as written: every shell block is read top to bottom and each loopcost
 * command (and `npm start`) is run in a fresh temporary copy of the project, in order (an example may
 * use a file an earlier one wrote), and must exit 0. `../shared` (the real recorded runs) is linked
 * beside the copy, as beside the project. Examples that are illustrative only must be listed in
 * ILLUSTRATIVE (keep it short); lines that are not examples (`npm test`: this suite) in NOT_EXAMPLES.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

describe('README examples', () => {
  const readme = readFileSync('README.md', 'utf8');
  const examples = readmeExamples(readme);

  it('the list of skipped lines is short and every entry is still in the README', () => {
    expect(ILLUSTRATIVE.length + NOT_EXAMPLES.length).toBeLessThanOrEqual(3);
    for (const skipped of [...ILLUSTRATIVE, ...NOT_EXAMPLES]) expect(examples.map((e) => e.command)).toContain(skipped);
    expect(examples.filter((e) => e.command.startsWith('loopcost ')).length).toBeGreaterThanOrEqual(12);
  });

  it('every example exits 0, run top to bottom in a fresh copy', () => {
    const base = mkdtempSync(join(tmpdir(), 'loopcost-readme-'));
    const root = join(base, 'loopcost');
    for (const entry of ['bin', 'dist', 'scenarios', 'schema', 'docs', 'test/fixtures', 'package.json', 'README.md']) cpSync(entry, join(root, entry), { recursive: true });
    symlinkSync(resolve('node_modules'), join(root, 'node_modules'), 'dir');
    symlinkSync(resolve('..', 'shared'), join(base, 'shared'), 'dir');
    const failures: string[] = [];
    for (const { line, command } of examples) {
      if (ILLUSTRATIVE.includes(command) || NOT_EXAMPLES.includes(command)) continue;
      const shell = command.startsWith('loopcost ')
        ? `node bin/loopcost.js ${command.slice('loopcost '.length)}`
        : command === 'npm ci && npm start'
          ? 'npm start --silent'
          : undefined;
      if (shell === undefined) {
        failures.push(`README.md:${line}: '${command}' is neither a loopcost example nor listed as skipped`);
        continue;
      }
      const r = spawnSync('sh', ['-c', shell], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (r.status !== 0) failures.push(`README.md:${line}: '${command}' exited ${r.status}: ${r.stderr.trim().split('\n').slice(0, 3).join(' / ')}`);
    }
    expect(failures).toEqual([]);
  }, 180_000);
});

describe('reading the README', () => {
  it('joins continued lines and drops comments', () => {
    const text = ['intro', '```sh', '# a comment', 'loopcost a --x 1  # trailing', 'loopcost b \\', '  --try c', '```', '```sh', 'npm test', '```'].join('\n');
    expect(readmeExamples(text)).toEqual([
      { line: 4, command: 'loopcost a --x 1' },
      { line: 5, command: 'loopcost b --try c' },
      { line: 9, command: 'npm test' },
    ]);
  });
});
