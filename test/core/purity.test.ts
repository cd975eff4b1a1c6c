/**
 * The core is pure: every module under src/ but the shell's (SHELL: the command line, reading and writing
 * files, serving, importing logs, caches, price files, scenario files, check's inputs, the real loop's
 * wall clock and SDK) neither imports Node's built-ins, reads the wall clock, draws random numbers, reads
 * the process's state nor schedules work on timers; nor does any module it imports at run time. A new
 * folder is core until it is named here as shell. Sources are read as TypeScript (comments and strings
 * are not code); `import type` is erased at build and so is not followed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SHELL = [
  'src/cli', 'src/io', 'src/serve', 'src/import', 'src/cache', 'src/check', 'src/pricing', 'src/scenario',
  'src/index.ts', 'src/library',
  // The real loop's shell: run.ts (wall clock, tokenizer), recorder.ts (node:fs), openaiChat.ts (SDK, env).
  'src/agent/run.ts', 'src/agent/recorder.ts', 'src/agent/openaiChat.ts',
];
/** Packages the core may import (pure: no clock, no randomness, no I/O on the paths the core uses). */
const PURE_PACKAGES = ['zod', 'pure-rand', 'asciichart'];

const isShell = (file: string) => SHELL.some((s) => file === s || file.startsWith(`${s}/`));
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const TIMERS = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);
const RANDOM_CRYPTO = new Set(['randomUUID', 'getRandomValues', 'randomBytes', 'randomInt']);

/** A module specifier imported at run time, and whether it is relative. */
function runtimeImports(source: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      const [arg] = node.arguments;
      out.push(arg && ts.isStringLiteralLike(arg) ? arg.text : '<computed>');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** What a source text does that the core must not (each kind once). */
export function impurities(text: string | ts.SourceFile): string[] {
  const source = typeof text === 'string' ? ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true) : text;
  const found = new Set<string>();
  for (const spec of runtimeImports(source)) {
    if (BUILTINS.has(spec)) found.add(`imports a Node built-in (${spec})`);
    else if (spec === '<computed>') found.add('imports a computed module name');
  }
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const [object, member] = [node.expression.text, node.name.text];
      if ((object === 'Date' && member === 'now') || (object === 'performance' && member === 'now')) found.add(`reads the wall clock (${object}.now)`);
      if (object === 'Math' && member === 'random') found.add('uses Math.random');
      if (object === 'process') found.add(`reads the process (process.${member})`);
      if (object === 'crypto' && RANDOM_CRYPTO.has(member)) found.add(`draws random values (crypto.${member})`);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Date' && (node.arguments?.length ?? 0) === 0) found.add('reads the wall clock (new Date)');
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      if (node.expression.text === 'Date') found.add('reads the wall clock (Date())');
      if (TIMERS.has(node.expression.text)) found.add(`schedules on a timer (${node.expression.text})`);
    }
    if (ts.isIdentifier(node) && node.text === 'globalThis') found.add('reaches globalThis');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found];
}

const parsed = new Map<string, ts.SourceFile>();
/** A file read as TypeScript, once. */
function sourceOf(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (source === undefined) parsed.set(file, (source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)));
  return source;
}

function tsFiles(path: string): string[] {
  if (statSync(path).isFile()) return path.endsWith('.ts') ? [path] : [];
  return readdirSync(path).flatMap((name) => tsFiles(join(path, name)));
}

/** Every core file and every module it imports at run time: file → the file that first imported it. */
function reachable(roots: string[]): Map<string, string | undefined> {
  const from = new Map<string, string | undefined>(roots.map((file) => [file, undefined]));
  const queue = [...from.keys()];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const spec of runtimeImports(sourceOf(file))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (existsSync(target) && !from.has(target)) from.set(target, file), queue.push(target);
    }
  }
  return from;
}

const chain = (from: Map<string, string | undefined>, file: string) => {
  const path: string[] = [];
  for (let at: string | undefined = file; at !== undefined; at = from.get(at)) path.unshift(relative(process.cwd(), at));
  return path.join(' → ');
};

const CORE = tsFiles('src').filter((file) => !isShell(file)).map((file) => resolve(file));

describe('pure core', () => {
  it('the checker finds each banned use, and ignores comments, strings and type-only imports', () => {
    expect(impurities("import { readFileSync } from 'node:fs';\nimport { join } from 'path';")).toEqual(['imports a Node built-in (node:fs)', 'imports a Node built-in (path)']);
    expect(impurities("import type { Stats } from 'node:fs';\nconst s = 'a // Date.now()';")).toEqual([]);
    expect(impurities('const t = Date.now();\nconst d = new Date;\nconst e = new Date(0);')).toEqual(['reads the wall clock (Date.now)', 'reads the wall clock (new Date)']);
    expect(impurities('const x = performance.now() + Math.random();')).toEqual(['reads the wall clock (performance.now)', 'uses Math.random']);
    expect(impurities('const s = Date(); setTimeout(f, 1); const e = process.env.X; const g = globalThis;')).toEqual(['reads the wall clock (Date())', 'schedules on a timer (setTimeout)', 'reads the process (process.env)', 'reaches globalThis']);
    expect(impurities("const u = crypto.randomUUID(); const m = await import('node:' + 'fs');")).toEqual(['imports a computed module name', 'draws random values (crypto.randomUUID)']);
    expect(impurities('// no Math.random() here\n/* nor Date.now() */\nconst a = `${"Math.random()"}`;')).toEqual([]);
  });

  it('no core module, nor any module it imports at run time, is impure', () => {
    expect(CORE.length).toBeGreaterThan(150);
    const from = reachable(CORE);
    const found = [...from.keys()].flatMap((file) => impurities(sourceOf(file)).map((what) => `${chain(from, file)}: ${what}`));
    expect(found).toEqual([]);
  });

  it('core modules import only relative modules and pure packages', () => {
    const packages = CORE.flatMap((file) =>
      runtimeImports(sourceOf(resolve(file)))
        .filter((spec) => !spec.startsWith('.') && !BUILTINS.has(spec) && !PURE_PACKAGES.includes(spec))
        .map((spec) => `${file}: ${spec}`),
    );
    expect(packages).toEqual([]);
  });
});
