/**
 * Claude Code logs as they come in the wild (review G): every billed call counted once, and what bills
 * beyond the token prices said. Cases built from the real session 258c7280 (claudeCodeWildFixture.ts),
 * whose tree costs $12.2407 (a hand count, review G's handcost.py, gave $12.2257 with the 1 output token the
 * transcript logs for its sub-agent's last response, whose Task result reports 997).
 */
import { describe, expect, it } from 'vitest';
import { TraceInputs } from '../../src/import/inputSet.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { Trace } from '../../src/trace/types.js';
import { imageBlockTokens } from '../../src/import/claudeCode/imageTokens.js';
import { collectAsync } from '../helpers.js';
import { cli } from '../cli/run.js';
import { COPY, copyFile, editUsage, mainLines, SESSION, sessionFile, sessionFolder, withResumeCopy, withSidechainCopy } from './claudeCodeWildFixture.js';

const prices = loadPriceTable();
const BASELINE_USD = 12.2407; // $12.2257 before the sub-agent's last output was its Task result's (997 tokens, not 1)

async function folderRuns(paths: string[]): Promise<Trace[]> {
  const inputs = TraceInputs.fromPaths(paths);
  const runs: Trace[] = [];
  for await (const { trace } of inputs.runs()) runs.push(trace);
  inputs.finish();
  return runs;
}

function costUsd(runs: readonly Trace[]): number {
  const pico = runs.reduce((sum, run) => sum + BigInt(replayTrace(run, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices }).costPico), 0n);
  return Math.round(Number(pico) / 1e8) / 1e4;
}

const notesOf = (runs: readonly Trace[]): string[] => runs.flatMap((run) => run.header.importedFrom?.notes ?? []);

describe('a resumed or forked session file that copies the calls of another (finding 1)', () => {
  it('counts each copied call once in a folder: the total is the session\'s own', async () => {
    const dir = sessionFolder();
    expect(costUsd(await folderRuns([dir]))).toBe(BASELINE_USD);
    withResumeCopy(dir);
    const runs = await folderRuns([dir]);
    expect(costUsd(runs)).toBe(BASELINE_USD); // was $15.9744: the copy's 40 calls counted again
    expect(new Set(runs.map((run) => run.header.agent!.sessionId))).toEqual(new Set([SESSION]));
  });

  it('keeps a copied call in the same file whichever order the files are given in, and says what it dropped and why', async () => {
    const dir = sessionFolder();
    const own = mainLines().find((row) => row.type === 'assistant' && row.message.model === 'claude-opus-4-6')!;
    const ownCall = { ...own, sessionId: COPY, requestId: 'req_resumed_own', message: { ...own.message, id: 'msg_resumed_own' }, timestamp: '2026-02-12T09:00:00.000Z' };
    withResumeCopy(dir, { ownLines: [ownCall] });
    const orders = [[sessionFile(dir), copyFile(dir)], [copyFile(dir), sessionFile(dir)]];
    const seen = [];
    for (const paths of orders) {
      const runs = await folderRuns(paths);
      const calls = (session: string) => runs.filter((run) => run.header.agent!.sessionId === session).reduce((sum, run) => sum + run.calls.length, 0);
      seen.push([calls(SESSION), calls(COPY), costUsd(runs)]);
      const copyNotes = notesOf(runs.filter((run) => run.header.agent!.sessionId === COPY));
      expect(copyNotes).toContainEqual(expect.stringMatching(new RegExp(`^40 calls of this file are copies of calls of ${SESSION}\\.jsonl \\(the same message\\.id, requestId and usage.*counted there once, dropped here$`)));
    }
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]![1]).toBe(1); // the resumed session's own call only
  });

  it('a copy that keeps the old session id is no second run of that session (replay --tree is not refused), nor does it read the sub-agents again', async () => {
    const dir = sessionFolder();
    withResumeCopy(dir, { keepId: true });
    for (const args of [['replay', '--tree', dir], ['replay', dir]]) {
      const result = await cli(...args, '--format', 'json');
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(Math.round((report.summary.costUsd ?? report.summary.totalCostUsd) * 1e4) / 1e4).toBe(BASELINE_USD);
    }
  });

  it('reads a file alone as it is: with no other session file given, no call is dropped', async () => {
    const dir = sessionFolder();
    withResumeCopy(dir);
    const runs = await collectAsync(loadTraceFiles([copyFile(dir)]));
    expect(runs.reduce((sum, run) => sum + run.calls.length, 0)).toBe(40);
  });
});

describe("a sub-agent's lines in the session's file and in its own (finding 7)", () => {
  for (const keepAgentId of [false, true]) {
    it(`${keepAgentId ? 'with' : 'without'} their agentId: counted once, the session read as a session`, async () => {
      const runs = await folderRuns([sessionFolder(withSidechainCopy(keepAgentId))]);
      expect(costUsd(runs)).toBe(BASELINE_USD); // was $12.4891 without agentId, $12.1173 with
      expect(runs.map((run) => run.header.agent!.agentId).filter((id, k, all) => all.indexOf(id) === k)).toEqual(['main', 'a881341']);
      expect(runs.some((run) => run.calls.some((call) => call.compaction === true))).toBe(true);
      expect(notesOf(runs)).toContain('3 calls of sidechain lines in the session transcript are also in the sub-agent transcript agent-a881341 (the same message.id and requestId): counted there once, dropped here');
      expect(notesOf(runs).some((note) => note.includes('read on its own'))).toBe(false);
    });
  }
});

describe('a null usage field (finding 8)', () => {
  it('is refused at its file, line and field, exit 2', async () => {
    const rows = mainLines();
    const line = rows.findIndex((row) => row.type === 'assistant' && row.message.model !== '<synthetic>');
    rows[line]!.message.usage.cache_read_input_tokens = null;
    const dir = sessionFolder(rows);
    const result = await cli('replay', dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${SESSION}.jsonl:line ${line + 1} field 'message.usage.cache_read_input_tokens': is null`);
    expect(result.stderr).not.toContain('    at ');
  });
});

describe('what bills beyond the token prices, said in a note (findings 3, 4, 6)', () => {
  it('web searches: priced from the bundled table ($10 per 1,000 for Opus 4.6), in the cost and said with what they come to; fetches said as tokens only', async () => {
    const runs = await folderRuns([sessionFolder(editUsage((k) => k === 5, (usage) => (usage.server_tool_use = { web_search_requests: 5, web_fetch_requests: 2 })))]);
    expect(costUsd(runs)).toBeCloseTo(BASELINE_USD + 0.05, 4);
    expect(notesOf(runs)).toContainEqual(expect.stringMatching(/^5 web searches on 1 call of claude-opus-4-6 \(\$10 per 1,000 searches in the bundled @pydantic\/genai-prices, anthropic\/claude-opus-4-6 web_searches_kcount: \$0\.05\).*that fee is in the cost/));
    expect(notesOf(runs)).toContainEqual(expect.stringMatching(/^2 web fetches .*billed as the tokens/));
  });

  it('fast mode and US-only inference: the table has no such prices, so standard prices are used and said', async () => {
    const fast = await folderRuns([sessionFolder(editUsage((k) => k >= 10 && k < 30, (usage) => (usage.speed = 'fast')))]);
    expect(costUsd(fast)).toBe(BASELINE_USD);
    expect(notesOf(fast)).toContainEqual(expect.stringMatching(/^20 calls record usage\.speed "fast" .*no speed prices, so they are priced at the model's standard prices and their recorded cost may be understated$/));
    const us = await folderRuns([sessionFolder(editUsage(() => true, (usage) => (usage.inference_geo = 'us')))]);
    expect(notesOf(us)).toContainEqual(expect.stringMatching(/^152 calls record usage\.inference_geo "us" \(US-only inference.*no data-residency prices/));
    const plain = notesOf(await folderRuns([sessionFolder()]));
    expect(plain.some((note) => /web searches|usage\.speed|inference_geo/.test(note))).toBe(false); // "global", "not_available", "": standard
  });
});

describe('an image a tool returned (finding 9)', () => {
  it('counts in its tool result at an estimate, with a note; recorded money unchanged', async () => {
    const rows = mainLines();
    const line = rows.find((row) => row.type === 'user' && Array.isArray(row.message.content) && row.message.content.some((b: any) => b.type === 'tool_result'))!;
    const block = line.message.content.find((b: any) => b.type === 'tool_result');
    block.content = [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } }];
    const runs = await folderRuns([sessionFolder(rows)]);
    const result = runs.flatMap((run) => run.calls.flatMap((call) => call.toolCalls ?? [])).find((tool) => tool.id === block.tool_use_id)!;
    expect(result.resultTokens).toBe(1600); // was 0
    expect(notesOf(runs)).toContainEqual(expect.stringMatching(/^1 image in tool results: counted at an estimated 1600 tokens/));
    expect(costUsd(runs)).toBe(BASELINE_USD);
  });

  it("is width × height / 750 tokens when a PNG's header gives its size, at most 1,600", () => {
    const png = (width: number, height: number): string => {
      const bytes = Buffer.alloc(33);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(bytes);
      bytes.writeUInt32BE(width, 16);
      bytes.writeUInt32BE(height, 20);
      return bytes.toString('base64');
    };
    expect(imageBlockTokens({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png(200, 150) } })).toBe(40);
    expect(imageBlockTokens({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png(4000, 3000) } })).toBe(1600);
  });
});
