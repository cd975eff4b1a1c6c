/**
 * The README's real-loop examples run as written: each ```ts block that opens with
 * `// first, in another shell: loopcost serve FILE --port 8787` is compiled and run against that
 * `loopcost serve` (started here on a free port, the block's URL pointed at it), from a user's project
 * whose `loopcost` is this package (dist: needs `npm run build`), and prints what the README says it
 * prints (the first `prints `…`` after the block: its first line).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';

const SERVE_LINE = /^\/\/ first, in another shell: loopcost serve (\S+) --port 8787\n/;
const README_URL = 'http://127.0.0.1:8787';

interface ServedSnippet {
  served: string;
  code: string;
  /** The first line the README says it prints. */
  prints: string;
}

/** The README's ts blocks that run against `loopcost serve`, each with the file served and the line it prints. */
export function servedSnippets(readme: string): ServedSnippet[] {
  return [...readme.matchAll(/^```ts\s*\n([\s\S]*?)^```\s*\n([\s\S]*?)(?=^```|^## )/gm)].flatMap((m) => {
    const served = SERVE_LINE.exec(m[1]!);
    if (served === null) return [];
    const prints = /\bprints\s+`([^`]+)`/.exec(m[2]!);
    return [{ served: served[1]!, code: m[1]!, prints: prints?.[1] ?? '(no "prints `…`" after the block)' }];
  });
}

let server: ChildProcess | undefined;
afterEach(() => {
  server?.kill('SIGINT');
  server = undefined;
});

/** `loopcost serve FILE --port 0` from the project root, resolved with its base URL once it listens. */
function serve(file: string): Promise<string> {
  const child = spawn(process.execPath, ['bin/loopcost.js', 'serve', file, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  server = child;
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const url = /listening on (http:\/\/\S+?)[ ,]/.exec(out)?.[1];
      if (url) done(url);
    });
    child.on('exit', (code) => fail(new Error(`loopcost serve ${file} exited ${code} before listening: ${out}`)));
  });
}

/** A user's project beside the repository: `loopcost` resolves to it. */
function userProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loopcost-real-loop-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(resolve('.'), join(dir, 'node_modules', 'loopcost'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  return dir;
}

describe('the README real-loop examples against loopcost serve', () => {
  const snippets = servedSnippets(readFileSync('README.md', 'utf8'));

  it('are there: runAgentLoop, and runAgentLoop with a sub-agent tool', () => {
    expect(snippets.map((s) => s.served)).toEqual(['scenarios/springfield-weather.yaml', 'scenarios/flight-search.yaml']);
    expect(snippets[1]!.code).toContain('defineSubagentTool');
  });

  for (const [k, name] of ['runAgentLoop', 'runAgentLoop with a sub-agent tool'].entries()) {
    it(`${name} runs as written and prints what the README says`, async () => {
      const snippet = snippets[k]!;
      const url = await serve(snippet.served);
      const dir = userProject();
      const js = ts.transpileModule(snippet.code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
      expect(js).toContain(README_URL);
      writeFileSync(join(dir, 'snippet.mjs'), js.replaceAll(README_URL, url));
      const run = spawnSync(process.execPath, ['snippet.mjs'], { cwd: dir, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout.split('\n')[0]).toBe(snippet.prints);
    }, 60_000);
  }
});
