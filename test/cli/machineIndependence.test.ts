/**
 * Same inputs → byte-identical outputs, whatever the machine's time zone or current directory, through
 * the built CLI:
 * - a log time with no offset is read as UTC, not in `TZ` (it dates the run, and so the day its dated
 *   prices are read at): o3's price fell on 2025-06-10, and a rollout at 02:00 that day read in
 *   Asia/Kolkata used to be priced at June 9's price ($0.2312 instead of $0.0624);
 * - an absolute glob names its matches absolutely, from any directory (it used to give paths relative to
 *   the current directory, so `source`, `importedFrom.path` and the compiled-cache key moved with it).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZONELESS_TIMES_NOTE } from '../../src/import/common/timestamp.js';
import { tempDir } from './run.js';

const BIN = resolve('bin/loopcost.js');
const ZONES = ['UTC', 'Asia/Kolkata', 'Pacific/Chatham'];
const CODEX_FIXTURE = 'test/fixtures/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl';
const CLAUDE_SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';

function run(argv: string[], options: { cwd?: string; tz?: string } = {}): string {
  const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: options.cwd ?? process.cwd(), env: { ...process.env, TZ: options.tz ?? 'UTC' }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** A `"timestamp": "…Z"` field's time without its Z. */
const zoneless = (text: string): string => text.replace(/("timestamp":"[0-9T:.-]+)Z"/g, '$1"');

/** The README's repro: the Codex fixture as o3 on 2025-06-10 at 02:00, its times without a zone. */
function zonelessInputs(dir: string): { rollout: string; session: string; cassette: string } {
  const rollout = join(dir, 'rollout-2025-06-10T02-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl');
  writeFileSync(rollout, zoneless(readFileSync(CODEX_FIXTURE, 'utf8')).replace(/"gpt-5(-codex)?"/g, '"o3"').replace(/2025-09-20T10/g, '2025-06-10T02'));
  const session = join(dir, `${CLAUDE_SESSION}.jsonl`);
  writeFileSync(session, zoneless(readFileSync(`test/fixtures/claude-code/${CLAUDE_SESSION}.jsonl`, 'utf8')));
  const agents = join(dir, CLAUDE_SESSION, 'subagents');
  mkdirSync(agents, { recursive: true });
  for (const name of readdirSync(`test/fixtures/claude-code/${CLAUDE_SESSION}/subagents`)) {
    writeFileSync(join(agents, name), zoneless(readFileSync(`test/fixtures/claude-code/${CLAUDE_SESSION}/subagents/${name}`, 'utf8')));
  }
  const cassette = join(dir, 'dated.yaml');
  writeFileSync(cassette, readFileSync('test/fixtures/cassettes/dated-bedrock-converse.yaml', 'utf8').replace('Thu, 14 May 2026 07:44:10 GMT', 'Thu, 14 May 2026 02:44:10'));
  return { rollout, session, cassette };
}

interface Header {
  recordedAt?: string;
  importedFrom: { path: string; notes?: string[] };
}

function headersOf(jsonl: string): Header[] {
  return jsonl
    .split('\n')
    .filter((line) => line.includes('"type":"header"'))
    .map((line) => JSON.parse(line) as Header);
}

describe('time zone', () => {
  it("a time without an offset is UTC under every TZ: the Codex repro's cost, and every importer's recordedAt", () => {
    const dir = tempDir();
    const { rollout, session, cassette } = zonelessInputs(dir);
    const byZone = ZONES.map((tz) => {
      const cost = /total cost\s+(\S+)/.exec(run(['replay', rollout], { tz }))?.[1];
      const out = join(dir, `imported-${tz.replace('/', '-')}.jsonl`);
      run(['import', rollout, session, cassette, '--out', out], { tz });
      return { tz, cost, imported: readFileSync(out, 'utf8') };
    });
    for (const { tz, cost, imported } of byZone) {
      expect(cost, tz).toBe('$0.0624'); // o3 at 2025-06-10's price
      expect(imported, tz).toBe(byZone[0]!.imported);
    }
    const headers = headersOf(byZone[0]!.imported);
    const recordedAt = (path: string) => headers.find((h) => h.importedFrom.path === path)?.recordedAt;
    expect(recordedAt(rollout)).toBe('2025-06-10T02:00:00.025Z');
    expect(recordedAt(session)).toMatch(/^2026-02-12T14:11:\d\d\.\d{3}Z$/); // the fixture's UTC times
    expect(recordedAt(cassette)).toBe('2026-05-14T02:44:10Z');
    for (const path of [rollout, session, cassette]) expect(headers.find((h) => h.importedFrom.path === path)?.importedFrom.notes, path).toContain(ZONELESS_TIMES_NOTE);
  });

  it('times with an offset say nothing of zones', () => {
    const headers = headersOf(run(['import', CODEX_FIXTURE, '--out', '-'], { tz: 'Asia/Kolkata' }));
    expect(headers[0]!.recordedAt).toBe('2025-09-20T10:00:00.025Z');
    expect(headers[0]!.importedFrom.notes).not.toContain(ZONELESS_TIMES_NOTE);
  });
});

describe('current directory', () => {
  it('an absolute glob gives the same absolute paths (and outputs, and cache entries) from any directory', () => {
    const dir = tempDir();
    cpSync('test/fixtures/codex', join(dir, 'traces', 'codex'), { recursive: true });
    cpSync('test/fixtures/cassettes/dated-bedrock-converse.yaml', join(dir, 'traces', 'http', 'dated.yaml'));
    const glob = join(dir, 'traces', '*', '*.{jsonl,yaml}');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const cacheDir = join(dir, 'cache');
    const replayed = [process.cwd(), dir, elsewhere].map((cwd) => run(['replay', glob, '--format', 'json', '--cache-dir', cacheDir], { cwd }));
    expect(replayed[1]).toBe(replayed[0]);
    expect(replayed[2]).toBe(replayed[0]);
    const files = [join(dir, 'traces/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl'), join(dir, 'traces/http/dated.yaml')];
    const sources = (JSON.parse(replayed[0]!) as { runs: { source: string }[] }).runs.map((r) => r.source);
    expect(sources.every((source) => files.some((file) => source.startsWith(file))), sources.join(', ')).toBe(true);
    // One compiled entry per input: the runs from the other directories were cache hits, not new keys.
    // (Entries only: a file's content-hash memo, `.hash`, is written once the file is older than the racy
    // margin, which a slow machine reaches between these runs.)
    const entries = () => readdirSync(cacheDir).filter((name) => name.endsWith('.lcc')).sort();
    const before = entries();
    expect(before).toHaveLength(2);
    run(['replay', glob, '--cache-dir', cacheDir], { cwd: join(dir, 'traces') });
    expect(entries()).toEqual(before);

    const imported = [dir, elsewhere].map((cwd) => [...new Set(headersOf(run(['import', glob, '--out', '-'], { cwd })).map((h) => h.importedFrom.path))]);
    expect(imported[0]).toEqual(files);
    expect(imported[1]).toEqual(files);
  });

  it('a relative glob still gives paths relative to the current directory', () => {
    const dir = tempDir();
    cpSync('test/fixtures/codex', join(dir, 'traces', 'codex'), { recursive: true });
    const paths = [...new Set(headersOf(run(['import', 'traces/*/*.jsonl', '--out', '-'], { cwd: dir })).map((h) => h.importedFrom.path))];
    expect(paths).toEqual(['traces/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl']);
  });
});
