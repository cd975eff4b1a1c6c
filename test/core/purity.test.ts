/**
 * The core is pure: no `node:*`, wall clock or `Math.random` in src/kernel, src/brakes, src/context,
 * src/loop, src/fast, src/synthetic, src/money.ts, the tree engine (src/tree: all but replayTree.ts) or
 * the real loop (src/agent but its shell files), nor in any module they import.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The real loop (src/agent) is core but for its shell, which supplies what the loop is given: run.ts
 * (the wall clock, the tokenizer), recorder.ts (node:fs), openaiChat.ts (the SDK, the environment).
 */
const AGENT_SHELL = ['run.ts', 'recorder.ts', 'openaiChat.ts'];
const AGENT_CORE = readdirSync('src/agent').filter((file) => file.endsWith('.ts') && !AGENT_SHELL.includes(file)).map((file) => `src/agent/${file}`);
const CORE = ['src/kernel', 'src/brakes', 'src/context', 'src/loop', 'src/fast', 'src/synthetic', 'src/money.ts', 'src/tree/group.ts', 'src/tree/schedule.ts', 'src/tree/engine.ts', 'src/tree/result.ts', 'src/tree/budget.ts', 'src/tree/live.ts', ...AGENT_CORE];

const BANNED: [RegExp, string][] = [
  [/from\s+['"]node:|import\(\s*['"]node:|require\(\s*['"]node:/, 'imports node:*'],
  [/\bDate\.now\s*\(/, 'reads the wall clock (Date.now)'],
  [/\bnew\s+Date\s*\(/, 'reads the wall clock (new Date)'],
  [/\bperformance\.now\s*\(/, 'reads the wall clock (performance.now)'],
  [/\bMath\.random\s*\(/, 'uses Math.random'],
];

/** Source without comments (block comments, and line comments after whitespace or at a line's start). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

/** What a source text does that the core must not. */
export function impurities(text: string): string[] {
  const body = code(text);
  return BANNED.filter(([pattern]) => pattern.test(body)).map(([, what]) => what);
}

function tsFiles(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => tsFiles(join(path, name))).filter((file) => file.endsWith('.ts'));
}

/** The core files and every module they import, transitively. */
function reachable(roots: string[]): string[] {
  const seen = new Set<string>();
  const queue = roots.flatMap(tsFiles).map((file) => resolve(file));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of code(readFileSync(file, 'utf8')).matchAll(/(?:from|import\()\s*['"](\.[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), spec!.replace(/\.js$/, '.ts'));
      if (existsSync(target)) queue.push(target);
    }
  }
  return [...seen].sort();
}

describe('pure core', () => {
  it('the checker finds each banned use, and ignores it in comments', () => {
    expect(impurities("import { readFileSync } from 'node:fs';")).toEqual(['imports node:*']);
    expect(impurities('const t = Date.now();\nconst d = new Date(0);')).toEqual(['reads the wall clock (Date.now)', 'reads the wall clock (new Date)']);
    expect(impurities('const x = performance.now() + Math.random();')).toEqual(['reads the wall clock (performance.now)', 'uses Math.random']);
    expect(impurities('// no Math.random() here\n/* nor Date.now() */\nconst a = 1;')).toEqual([]);
  });

  it('no core module, nor any module it imports, reads the clock, draws random numbers or imports node:*', () => {
    const files = reachable(CORE);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) => impurities(readFileSync(file, 'utf8')).map((what) => `${relative(process.cwd(), file)}: ${what}`));
    expect(found).toEqual([]);
  });
});
