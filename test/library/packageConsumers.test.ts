/**
 * The package as other projects use it: a CommonJS project requires it (no top-level await anywhere in
 * dist/, so no module of it is an async ES module), `main` is loaded only when called (the entry does not import
 * the command line), `io.cwd` is this process's directory or refused, and the tarball ships no source maps.
 * (That a client of the consumer's own copy of the `openai` SDK type-checks as openAIChatModel's `client` is
 * test/readme/library.test.ts's, in its one compile of the built declarations.) Needs `npm run build` (as the
 * CLI tests do).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { waitForUpdate } from '@pydantic/genai-prices';
import { main, UserError } from '../../src/index.js';
import { packageProvidersSync } from '../../src/pricing/genaiPackageSync.js';
import { tempDir } from '../cli/run.js';

// LOOPCOST_TEST_DIST: another build to hold to the same checks (an older one, to see them fail).
const DIST = resolve(process.env['LOOPCOST_TEST_DIST'] ?? 'dist');

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? jsFiles(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : []));
}

/** The `await`s of a module outside any function (top-level await, `for await` included). */
export function topLevelAwaits(text: string): number {
  const source = ts.createSourceFile('m.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  let found = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return;
    if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined)) found += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The modules a module imports statically (import and export declarations; not `import()`, which loads on demand). */
function staticImports(text: string): string[] {
  const source = ts.createSourceFile('m.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  return source.statements.flatMap((node) => ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? [node.moduleSpecifier.text] : []));
}

describe('a CommonJS project', () => {
  it("require('loopcost') (dist/index.js) loads: prices resolve and a UserError is one", () => {
    const script = join(tempDir(), 'probe.cjs');
    writeFileSync(
      script,
      `const lc = require(${JSON.stringify(join(DIST, 'index.js'))});
       let isUserError = false;
       try { lc.usdToPico(NaN); } catch (error) { isUserError = error instanceof lc.UserError; }
       console.log(JSON.stringify({ pico: lc.usdToPico(1), model: lc.loadPriceTable().resolve('gpt-4o-mini').requested, isUserError }));`,
    );
    const out = execFileSync(process.execPath, [script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ pico: 1_000_000_000_000, model: 'gpt-4o-mini', isUserError: true });
  });

  it('no module in dist/ awaits at its top level (an async module cannot be required)', () => {
    expect(topLevelAwaits('const a = await f();')).toBe(1);
    expect(topLevelAwaits('async function g() { await f(); for await (const x of y) {} }')).toBe(0);
    // The modules `require('loopcost')` loads (the CLI's bundles are not among them); a module with no `await` has none to look for.
    const modules = jsFiles(DIST).filter((file) => !file.endsWith('-bundle.js'));
    const awaiting = modules.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return text.includes('await') && topLevelAwaits(text) > 0;
    });
    expect(awaiting.map((file) => file.slice(DIST.length + 1))).toEqual([]);
  });

  it('the package’s own data, read synchronously when the build’s copy cannot be used, is the package’s', async () => {
    const entry = import.meta.resolve('@pydantic/genai-prices');
    expect(packageProvidersSync(entry)).toEqual(await waitForUpdate());
    expect(() => packageProvidersSync('file:///no/such/module.js')).toThrow(/could not read the provider data/);
  });
});

describe('main from the library', () => {
  it('is not loaded with the entry: dist/index.js imports neither the command line nor commander', () => {
    const seen = new Set<string>();
    const bare = new Set<string>();
    const walk = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of staticImports(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
        else bare.add(spec);
      }
    };
    walk(join(DIST, 'index.js'));
    expect(seen.has(join(DIST, 'library/main.js'))).toBe(true);
    expect([...seen].filter((file) => file.startsWith(join(DIST, 'cli/commands')) || file === join(DIST, 'cli/main.js'))).toEqual([]);
    expect([...bare].filter((name) => name === 'commander')).toEqual([]);
  });

  it('runs the command line when called; io.cwd, when given, is this process’s directory or refused', async () => {
    const out: string[] = [];
    const io = { stdout: (text: string) => void out.push(text), stderr: (text: string) => void out.push(text) };
    expect(await main(['--version'], io)).toBe(0);
    expect(await main(['--version'], { ...io, cwd: process.cwd() })).toBe(0);
    expect(await main(['--version'], { ...io, cwd: '.' })).toBe(0);
    const refused = await main(['replay', 'scenarios/long-exploration.jsonl'], { ...io, cwd: '/' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).issues.map((issue) => [issue.file, issue.field, issue.code])).toEqual([['<main arguments>', 'io.cwd', 'invalid_value']]);
    expect((refused as UserError).message).toMatch(/not this process's working directory/);
  });
});

/**
 * The files `npm pack` puts in the tarball: listed by npm's own npm-packlist (what `npm pack` lists them
 * with, from the npm installed beside this node) without packing them (`npm pack --dry-run` gzips the
 * ~15 MB it lists: ~3 s of CPU); `npm pack --dry-run` where that npm is not found.
 */
async function tarballFiles(): Promise<string[]> {
  const npmPacklist = join(dirname(process.execPath), '../lib/node_modules/npm/node_modules/npm-packlist');
  if (!existsSync(npmPacklist)) {
    const pack = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', maxBuffer: 64 << 20 })) as { files: { path: string }[] }[];
    return pack[0]!.files.map((f) => f.path);
  }
  const packlist = createRequire(import.meta.url)(npmPacklist) as (tree: object) => Promise<string[]>;
  // The project as npm's tree gives it to npm-packlist (this package bundles no dependencies: no edges to follow).
  return packlist({ path: process.cwd(), package: JSON.parse(readFileSync('package.json', 'utf8')), isProjectRoot: true, edgesOut: new Map() });
}

describe('the tarball', () => {
  it('ships no source maps (their sources are not shipped) and the built modules name none', async () => {
    const files = await tarballFiles();
    expect(files.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/pricing/genai-prices-data.jsonl');
    expect(readFileSync(join(DIST, 'index.js'), 'utf8')).not.toMatch(/sourceMappingURL/);
  }, 60_000);
});
