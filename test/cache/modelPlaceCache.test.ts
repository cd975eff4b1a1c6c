/**
 * What a run served from a cache (`--cache-dir`: the compiled-trace cache, compiledCache.ts, and the runs
 * cache, traceCache.ts) keeps of the run read afresh: every Trace field, in the same order, so a complaint
 * about its model names the same file and line warm as cold. The compiled entry kept source, header line,
 * header, end and calls, and dropped `modelPlace` (where a Claude Code sub-agent's model was read: its own
 * transcript, not the session file its source names): such a run served warm named the session's source,
 * no line, instead of `agent-<id>.jsonl:line 2`. No shipped format puts one in an entry (Claude Code is not
 * SELF_CONTAINED), so it is seen here through a read that reports a kept format; now a run read in part
 * from another file is kept by neither cache (its key hashes the input's bytes only), and a field Trace
 * gains fails to build until the compiled entry keeps it (compiledEntry.ts TRACE_FIELDS).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SELF_CONTAINED_FIXTURES } from './fixtures.js';
import { CompiledTraceCache } from '../../src/cache/compiledCache.js';
import { TraceFileCache } from '../../src/cache/traceCache.js';
import { UserError } from '../../src/errors.js';
import { loadTraceFile, type RunsCache } from '../../src/import/index.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { TRACE_SCHEMA, type Trace } from '../../src/trace/types.js';
import { distinctSteps, MINI_TABLE } from '../helpers.js';
import { AGENT, projectCopy, SESSION } from '../import/claudeCode20Fixture.js';
import { cli, tempDir } from '../cli/run.js';

const CACHES: Record<string, (dir: string) => RunsCache> = {
  compiled: (dir) => new CompiledTraceCache(dir, 'test'),
  runs: (dir) => new TraceFileCache(dir, 'test'),
};

/** A run of `input` whose model (unknown to MINI_TABLE) was read from line 7 of another file, as a Claude Code sub-agent's is. */
function placedRun(input: string, otherFile: string): Trace {
  return {
    source: `${input}#agent-x`,
    modelPlace: { file: otherFile, line: 7 },
    header: { type: 'header', schema: TRACE_SCHEMA, model: 'claude-mystery-9', systemTokens: 10, goalTokens: 0, origin: 'recorded' },
    calls: distinctSteps(2),
    end: { type: 'end', outcome: 'completed' },
  };
}

/** The runs `cache` gives for `input` when its read (telling the format `native`, one the caches keep) gives `runs`; and whether the input was read. */
async function throughCache(cache: RunsCache, input: string, runs: Trace[]): Promise<{ runs: Trace[]; readInput: boolean }> {
  let readInput = false;
  const served: Trace[] = [];
  const read = async function* (formatSeen: (format: 'native') => void) {
    readInput = true;
    formatSeen('native');
    yield* runs;
  };
  for await (const run of cache.runsOf(input, 'settings', read)) served.push(run);
  return { runs: served, readInput };
}

/** Every field of a served run as the fresh run's: the same keys in the same order, the same values. */
function expectSameRun(served: Trace, fresh: Trace): void {
  void served.calls;
  expect(Object.keys(served), fresh.source).toEqual(Object.keys(fresh));
  expect(JSON.stringify(served), fresh.source).toBe(JSON.stringify(fresh));
}

/** The entries a cache directory holds (none when it was never made). */
function entriesIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((file) => !file.endsWith('.hash')) : [];
}

/** Where an unknown model is said to be: the issue's file, line and field. */
function unknownModelPlace(run: Trace): unknown {
  try {
    resolveTracePricing(run, { prices: MINI_TABLE });
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    const { file, line, field } = (error as UserError).issues[0]!;
    return { file, line, field };
  }
  throw new Error(`${run.source}: the model was priced`);
}

describe.each(Object.keys(CACHES))('the %s cache: a run whose model was read from another file', (name) => {
  it('is served warm as read, its unknown model named at the same file and line (the input read again: no entry kept)', async () => {
    const dir = tempDir();
    const input = join(dir, 'session.jsonl');
    writeFileSync(input, '{"the":"input"}\n');
    const fresh = placedRun(input, join(dir, 'agent-x.jsonl'));
    const cold = await throughCache(CACHES[name]!(join(dir, 'cache')), input, [fresh]);
    const warm = await throughCache(CACHES[name]!(join(dir, 'cache')), input, [fresh]);
    expect([cold.readInput, warm.readInput]).toEqual([true, true]);
    expectSameRun(warm.runs[0]!, fresh);
    expect(unknownModelPlace(warm.runs[0]!)).toEqual({ file: join(dir, 'agent-x.jsonl'), line: 7, field: 'header.model' });
    expect(entriesIn(join(dir, 'cache'))).toEqual([]);
  });
});


describe.each(Object.keys(CACHES))('the %s cache, warm', (name) => {
  it('serves every run of every kept format with every field of the run read afresh, in the same order', async () => {
    const dir = tempDir();
    for (const path of SELF_CONTAINED_FIXTURES) {
      const fresh = await loadTraceFile(path);
      await loadTraceFile(path, { cache: CACHES[name]!(dir) });
      const warm = await loadTraceFile(path, { cache: CACHES[name]!(dir) });
      expect(warm, path).toHaveLength(fresh.length);
      warm.forEach((run, i) => expectSameRun(run, fresh[i]!));
    }
  });
});

describe('--cache-dir: an unknown model, cold and warm', () => {
  /** `replay` (compiled cache) and `replay --per-step` (runs cache) of `input`: first priced as gpt-4o-mini (the entry written), then as recorded, warm and with no cache. */
  async function warmAndFresh(input: string, extra: string[] = []) {
    const cache = join(tempDir(), 'cache');
    const primed = await cli('replay', input, ...extra, '--model', 'gpt-4o-mini', '--cache-dir', cache);
    const warm = await cli('replay', input, ...extra, '--cache-dir', cache);
    const fresh = await cli('replay', input, ...extra);
    return { primed, warm, fresh, entries: entriesIn(cache) };
  }

  it.each([[[]], [['--per-step', '--format', 'json']]])('a native run (replay %j): the same message, naming its header line, from the entry as from the file', async (extra) => {
    const input = join(tempDir(), 'runs.jsonl');
    const run = (model: string) => [`{"type":"header","schema":"loopcost.trace/1","model":"${model}","systemTokens":10,"goalTokens":5}`, '{"type":"call","inputTokens":100,"outputTokens":5}', '{"type":"end","outcome":"completed"}'];
    writeFileSync(input, [...run('gpt-4o-mini'), ...run('gpt-mystery-9')].join('\n') + '\n');
    const { primed, warm, fresh, entries } = await warmAndFresh(input, extra);
    expect(primed.code).toBe(0);
    expect(entries.length).toBeGreaterThan(0);
    expect([warm.code, fresh.code]).toEqual([2, 2]);
    expect(warm.stderr).toBe(fresh.stderr);
    expect(warm.stderr).toContain(`${input}#2:line 4 field 'header.model': unknown model 'gpt-mystery-9'`);
  });

  it.each([[[]], [['--per-step', '--format', 'json']]])("a Claude Code sub-agent's run (replay %j): named at its own file's line, warm as fresh", async (extra) => {
    const { session, agent } = projectCopy();
    writeFileSync(agent, readFileSync(agent, 'utf8').replace(/"model":"claude-[^"]+"/g, '"model":"claude-mystery-9"'));
    const { warm, fresh, entries } = await warmAndFresh(session, extra);
    expect(entries).toEqual([]);
    expect([warm.code, fresh.code]).toEqual([2, 2]);
    expect(warm.stderr).toBe(fresh.stderr);
    expect(warm.stderr).toContain(`${agent}:line 2 field 'message.model': unknown model 'claude-mystery-9'`);
    expect(session).toContain(SESSION);
    expect(agent).toContain(AGENT);
  });
});
