/**
 * A Claude Code session copied without its compaction transcript (`<session>/subagents/agent-acompact-*.jsonl`):
 * its `compact_boundary` line says a compaction was made, whose call and cost are then in no total. It is
 * warned of as a missing sub-agent's transcript is (on stderr, once, by every command), naming the file,
 * line and compactMetadata.preTokens, with an estimate of what the call cost (a range: how much of its
 * prompt the cache served is written nowhere). Before, nothing said so: on session B the tree's total fell
 * from $6.17 to $5.40 in silence.
 */
import { appendFileSync, cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { isMissingTranscriptNote } from '../../src/import/claudeCode/missingTranscript.js';
import { unansweredBoundaries } from '../../src/import/claudeCode/compactBoundaries.js';
import { callCostPico } from '../../src/pricing/cost.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { picoToUsd } from '../../src/money.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FIXTURE_DIR = 'test/fixtures/claude-code';
const COMPACTION = 'agent-acompact-946d2b.jsonl';

/** A copy of the fixture session without its compaction transcript. */
function withoutCompaction(): { dir: string; session: string } {
  const dir = tempDir();
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  rmSync(join(dir, SESSION, 'subagents', COMPACTION));
  return { dir, session: join(dir, `${SESSION}.jsonl`) };
}

const compactionNotes = (runs: Trace[]) => runs.flatMap((run) => run.header.importedFrom?.notes ?? []).filter((note) => note.startsWith('compaction at '));

describe('a compaction whose transcript is missing', () => {
  it('is noted on the main agent, naming the file, line and preTokens, with what it may have cost', async () => {
    const { dir, session } = withoutCompaction();
    const runs = await collectAsync(loadTraceFiles([session]));
    const notes = compactionNotes(runs);
    expect(notes).toHaveLength(1);
    const [note] = notes as [string];
    expect(note).toMatch(
      new RegExp(
        `^compaction at ${SESSION}\\.jsonl line 81 \\(compact_boundary, trigger manual, compactMetadata\\.preTokens 142431\\) has no transcript file \\(looked for as ${dir}/${SESSION}/subagents/agent-acompact-<id>\\.jsonl or \\.jsonl\\.gz, or as ${dir}/agent-acompact-<id>\\.jsonl naming this session\\): its call and its cost are left out of the totals; ` +
          `estimated at claude-opus-4-6's prices in the bundled table \\(the model of the session's next call\\): a prompt of 142431 tokens \\(compactMetadata\\.preTokens\\) and an output of \\d+ tokens \\(its summary, line 82\\) come to \\$[\\d.]+ with the prompt all read from the cache, \\$[\\d.]+ with all of it written to the 1-hour cache$`,
      ),
    );
    expect(isMissingTranscriptNote(note)).toBe(true);
    expect(runs.some((run) => run.calls.some((call) => call.compaction))).toBe(false);
  });

  it("its estimate brackets the recorded compaction call's cost", async () => {
    const { session } = withoutCompaction();
    const note = compactionNotes(await collectAsync(loadTraceFiles([session])))[0]!;
    const [low, high] = [...note.matchAll(/\$([\d.]+) with/g)].map((m) => Number(m[1])) as [number, number];
    const whole = await collectAsync(loadTraceFiles([join(FIXTURE_DIR, `${SESSION}.jsonl`)]));
    const run = whole.find((r) => r.calls.some((call) => call.compaction))!;
    const call = run.calls.find((c) => c.compaction)!;
    // The compaction ran on claude-opus-4-6, the model of the session's next call, which the estimate names.
    const pricing = loadPriceTable().resolve('claude-opus-4-6', 'anthropic', run.header.recordedAt);
    const cached = call.cachedInputTokens ?? 0;
    const usd = picoToUsd(callCostPico(pricing, { input: call.inputTokens!, cached, cacheWrite: call.cacheWriteTokens ?? 0, cacheWrite1h: call.cacheWrite1hTokens ?? 0, output: call.outputTokens, reasoning: 0 }));
    expect(low).toBeLessThan(usd);
    expect(usd).toBeLessThan(high);
  });

  it('is warned of on stderr, once, by the commands that read it', async () => {
    const { dir } = withoutCompaction();
    for (const argv of [['replay', dir], ['replay', '--tree', dir], ['import', dir]]) {
      const r = await cli(...argv);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.split('\n').filter((line) => line.includes('compaction at '))).toEqual([expect.stringMatching(/^warning: .*#main\.1: compaction at .* line 81 .*: its call and its cost are left out of the totals; estimated at /)]);
    }
  });

  it('several are one note, each named by line, their estimates added up', async () => {
    const { session } = withoutCompaction();
    // The boundary and its summary again at the end of the session: a second compaction, also missing.
    const lines = readFileSync(session, 'utf8').trim().split('\n');
    appendFileSync(session, lines.slice(80, 82).map((line) => line.replace(/"timestamp":"2026-02-12T[^"]+"/, '"timestamp":"2026-02-12T23:00:00.000Z"')).join('\n') + '\n');
    const runs = await collectAsync(loadTraceFiles([session]));
    const notes = runs.flatMap((run) => run.header.importedFrom?.notes ?? []).filter((note) => note.includes('compactions at '));
    expect(notes).toHaveLength(1);
    const line = lines.length + 1;
    expect(notes[0]).toMatch(
      new RegExp(
        `^2 compactions at ${SESSION}\\.jsonl \\(compact_boundary lines 81 \\(trigger manual, compactMetadata\\.preTokens 142431\\), ${line} \\(trigger manual, compactMetadata\\.preTokens 142431\\)\\) have no transcript file \\(looked for as .*\\): their calls and their cost are left out of the totals; ` +
          `estimated at the bundled table's prices of the model of the session's call after each, else before it \\(claude-opus-4-6\\): their prompts \\(compactMetadata\\.preTokens\\) and outputs \\(their summaries\\) come to \\$[\\d.]+ with the prompts all read from the cache, \\$[\\d.]+ with all of it written to the 1-hour cache$`,
      ),
    );
    expect(isMissingTranscriptNote(notes[0]!)).toBe(true);
  });

  it('is not noted when the compaction transcript is there', async () => {
    const runs = await collectAsync(loadTraceFiles([join(FIXTURE_DIR, `${SESSION}.jsonl`)]));
    expect(compactionNotes(runs)).toEqual([]);
  });

  it('each boundary takes the earliest compaction made before it; one with none before it is unanswered', () => {
    const boundaries = [{ line: 10, atMs: 100 }, { line: 20, atMs: 200 }, { line: 30, atMs: 300 }];
    expect(unansweredBoundaries(boundaries, [150, 250]).map((b) => b.line)).toEqual([10]);
    expect(unansweredBoundaries(boundaries, [50]).map((b) => b.line)).toEqual([20, 30]);
    expect(unansweredBoundaries(boundaries, [undefined, 250]).map((b) => b.line)).toEqual([20]);
  });
});
