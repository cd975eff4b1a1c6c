/**
 * Codex rollouts as they come in the wild (test/import/codexForkRollouts.ts): a forked or sub-agent
 * rollout that opens with a copy of its parent's history meters each call once (src/import/codex/
 * forkCopy.ts); the service tier and web searches, which bill beyond the token prices, are said in notes
 * (src/import/codex/billingNotes.ts).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';
import { CHILD, childRollout, MAIN, mainRollout, type ChildOptions, type RolloutOptions } from './codexForkRollouts.js';

function writeDir(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, `rollout-2025-11-03T09-00-00-${name}.jsonl`), text);
  return dir;
}

async function runsOf(dir: string): Promise<Trace[]> {
  return collectAsync(loadTraceFiles(readdirSync(dir).map((name) => join(dir, name))));
}

/** The child's runs (the rollout named child), read alone. */
async function childRuns(options: ChildOptions): Promise<Trace[]> {
  return runsOf(writeDir({ child: childRollout(options).text() }));
}

const notesOf = (runs: Trace[]) => runs.flatMap((run) => run.header.importedFrom?.notes ?? []);
/** What a run's calls and header say, without the import notes (which name the copy). */
const callsOf = (runs: Trace[]) => runs.map((run) => ({ header: { ...run.header, importedFrom: undefined }, calls: run.calls, end: run.end }));

async function treeCostUsd(dir: string): Promise<{ costUsd: number; calls: number }> {
  const run = await cli('replay', '--tree', dir, '--format', 'json');
  expect(run.code).toBe(0);
  const totals = JSON.parse(run.stdout).trees[0].totals;
  return { costUsd: totals.costUsd, calls: totals.calls };
}

describe('a Codex rollout that opens with its parent’s copied history', () => {
  const { copied } = mainRollout();

  it('a sub-agent whose rollout copies the parent’s lines (a second session_meta) meters only its own calls, with a note', async () => {
    const clean = await childRuns({ promptAfterMs: 3000 });
    const forked = await childRuns({ copied, promptAfterMs: 3000 });
    expect(forked.flatMap((run) => run.calls)).toHaveLength(2);
    expect(callsOf(forked)).toEqual(callsOf(clean));
    expect(notesOf(forked).join('\n')).toContain(`opens with thread ${MAIN}'s history, copied in when this thread was forked from it (from line 2; 4 calls, their token_counts up to line ${copied.length + 1})`);
    expect(notesOf(clean).join('\n')).not.toContain('copied');
  });

  it('the session tree costs what it costs without the copy (review case c1 = c0)', async () => {
    const main = mainRollout().rollout.text();
    const clean = await treeCostUsd(writeDir({ main, child: childRollout({ promptAfterMs: 3000 }).text() }));
    const forked = await treeCostUsd(writeDir({ main, child: childRollout({ copied, promptAfterMs: 3000 }).text() }));
    expect(forked).toEqual(clean);
    expect(clean.calls).toBe(7);
  });

  it('a forked sub-agent as Codex writes it (forked_from_id, its prompt in the same burst as the copy): the first call keeps its prompt', async () => {
    const clean = await childRuns({});
    const forked = await childRuns({ copied, forkedFrom: MAIN });
    expect(callsOf(forked)).toEqual(callsOf(clean));
    expect(forked[0]!.header.goalTokens).toBeGreaterThan(0);
    expect(forked[0]!.header.agent).toEqual({ sessionId: MAIN, agentId: CHILD, kind: 'subagent', parentAgentId: 'main', background: true }); // spawn_agent returns at launch: in the background
  });

  it('a `codex fork` (forked_from_id, no spawn) is its own session without the parent’s calls (review case c2)', async () => {
    const dir = writeDir({ main: mainRollout().rollout.text(), child: childRollout({ copied, forkedFrom: MAIN, spawned: false, promptAfterMs: 3000 }).text() });
    const runs = await runsOf(dir);
    const fork = runs.filter((run) => run.header.agent?.sessionId === CHILD);
    expect(fork.flatMap((run) => run.calls).map((call) => call.inputTokens)).toEqual([8000, 8300]);
    expect(notesOf(fork).join('\n')).toContain(`thread ${MAIN}'s history`);
  });

  it('a copy that kept the parent’s own times (spread over minutes, before the fork) is still the copy', async () => {
    const forked = await childRuns({ copied, forkedFrom: MAIN, keepTimes: true });
    expect(callsOf(forked)).toEqual(callsOf(await childRuns({})));
  });

  it('a line after a pause longer than the copy burst is the thread’s own: a first response 1.5 s after its prompt is metered', async () => {
    const forked = await childRuns({ copied, forkedFrom: MAIN, firstResponseMs: 1500 });
    expect(forked.flatMap((run) => run.calls)).toHaveLength(2);
  });

  it('a rollout repeating its own session_meta (a resume) or naming another thread after its first call copies nothing', async () => {
    const r = mainRollout().rollout;
    const lines = r.text().trim().split('\n');
    const resumed = [...lines.slice(0, 8), lines[0]!, ...lines.slice(8)].join('\n') + '\n';
    const other = JSON.stringify({ ...JSON.parse(lines[0]!), payload: { ...JSON.parse(lines[0]!).payload, id: CHILD } });
    const foreignLate = [...lines.slice(0, 8), other, ...lines.slice(8)].join('\n') + '\n';
    for (const text of [resumed, foreignLate]) {
      const runs = await runsOf(writeDir({ main: text }));
      expect(runs.flatMap((run) => run.calls)).toHaveLength(5);
      expect(notesOf(runs).join('\n')).not.toContain('copied');
    }
  });
});

async function mainNotes(options: RolloutOptions): Promise<{ notes: string; calls: Trace['calls'] }> {
  const runs = await runsOf(writeDir({ main: mainRollout(options).rollout.text() }));
  return { notes: notesOf(runs).join('\n'), calls: runs.flatMap((run) => run.calls) };
}

describe('Codex service tier and web searches: billed beyond the token prices, said in notes', () => {
  it('turn_context service_tier "priority" (fast mode): how many calls, priced at the standard prices, understated ~2×', async () => {
    const priority = await mainNotes({ serviceTier: 'priority' });
    expect(priority.notes).toContain(
      '5 calls ran at service_tier "priority" (Codex fast mode: priority processing, billed about 2× the standard prices for GPT-5 models): the bundled @pydantic/genai-prices has no service-tier prices, so they are priced at the model\'s standard prices, and their recorded cost may be understated about 2×',
    );
    expect(priority.calls).toEqual((await mainNotes({})).calls);
    expect((await mainNotes({})).notes).not.toContain('service_tier');
    expect((await mainNotes({ serviceTier: 'default' })).notes).not.toContain('service_tier');
    expect((await mainNotes({ serviceTier: 'flex' })).notes).toContain('5 calls ran at service_tier "flex" (flex processing, billed about half the standard prices)');
  });

  it('thread_settings_applied sets the tier for the calls after it; a snapshot without service_tier is the standard tier', async () => {
    const applied = (tier?: string) => ({ type: 'thread_settings_applied', thread_settings: { model: 'gpt-5', model_provider_id: 'openai', ...(tier ? { service_tier: tier } : {}) } });
    expect((await mainNotes({ afterPrompt: [applied('priority')] })).notes).toContain('5 calls ran at service_tier "priority"');
    expect((await mainNotes({ serviceTier: 'priority', afterPrompt: [applied()] })).notes).not.toContain('service_tier');
    expect((await mainNotes({ afterPrompt: [{ type: 'thread_settings_applied', service_tier: 'fast' }] })).notes).toContain('5 calls ran at service_tier "fast" (Codex fast mode');
  });

  it('a fork of a priority thread: only its own calls are counted at the tier it inherited', async () => {
    const { copied } = mainRollout({ serviceTier: 'priority' });
    const notes = notesOf(await childRuns({ copied, forkedFrom: MAIN })).join('\n');
    expect(notes).toContain('2 calls ran at service_tier "priority"');
  });

  it('a web_search_call: its fee from the bundled table, said as in the figure', async () => {
    expect((await mainNotes({ webSearch: true })).notes).toContain(
      "1 web search of gpt-5 ($10 per 1,000 in the bundled @pydantic/genai-prices, openai/gpt-5 web_searches_kcount: $0.01) (web_search_call items) ran on the server inside their calls, not tool calls of the loop: OpenAI bills each on top of its tokens; that fee is in the cost at the price table's web search price (a price table without one, such as a LiteLLM file, adds nothing for them)",
    );
  });
});
