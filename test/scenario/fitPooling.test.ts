/**
 * `fit` says when its profile cannot be what the recorded runs were (a review on the shared Claude Code
 * sessions and on those pooled with the mini-swe-agent runs):
 *   - a session's sub-agent runs are left out when its main agent's runs are there, said in one line;
 *   - runs of several models, or of several agents, pooled: warned, each model with its runs, and the
 *     model the profile is of;
 *   - runs that compacted their context, fitted as a profile that keeps full history: warned, with the
 *     recorded compaction prompts and the field to edit;
 *   - the context-window warning speaks of the runs of the profile's model only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactionWarnings } from '../../src/scenario/fitPooling.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';

/** Claude Code fixture: main parts on opus (2, the second opening with a /compact call at 139,534 tokens) and haiku (1), and one sonnet sub-agent. */
const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
const SUBAGENT = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl';
/** Two deepseek-reasoner runs (prompts up to 5,023 tokens) and one deepseek-chat run (up to 16,562). */
const MINI = ['deepseek_reasoner_dev__pvlib__pvlib-python-1154.traj.json', 'deepseek_reasoner_dev__pvlib__pvlib-python-1606.traj.json', 'deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json'].map((f) => `test/fixtures/mini-swe-agent/${f}`);

/** Wrapped lines joined back. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const codes = (report: { warnings: { code: string }[] }) => report.warnings.map((w) => w.code);

describe('fit on a Claude Code session', () => {
  it('leaves the sub-agent out, said in one line; warns of the pooled models and of the compaction, in the report, on stderr and in the profile', async () => {
    const dir = tempDir();
    const out = join(dir, 'cc.yaml');
    const r = await cli('fit', SESSION, '--out', out, '--report', '--runs', '50', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^loopcost: 1 sub-agent run left out: fit profiles the main agent/m);
    const report = JSON.parse(r.stdout);
    expect(report.recordedRuns).toBe(3);
    expect(report.subagentRunsLeftOut).toBe(1);
    // 3 runs give no p90 or p95 (src/scenario/fitTails.ts): the report warns of that too, the profile does not.
    expect(codes(report)).toEqual(['fit_several_models', 'fit_recorded_compaction', 'few_runs_for_tails']);
    const [models, compaction] = report.warnings.map((w: { message: string }) => w.message);
    expect(models).toMatch(/^runs of 2 models pooled: claude-opus-4-6 \(2 runs\), claude-haiku-4-5-20251001 \(1 run\); the profile is of claude-opus-4-6, the most common/);
    expect(compaction).toMatch(/^1 of 3 recorded runs compacted their context \(1 compaction call, at prompts of 139,534 tokens\), but the profile's context is full, which never summarises/);
    expect(compaction).toMatch(/set the profile's context\.context to a summary strategy \(docs\/scenarios\.md\), e\.g\. summary:trigger=139534,keep=K,tokens=S/);
    const profile = readFileSync(out, 'utf8');
    expect(profile).toMatch(/^# Fitted by loopcost fit to 3 recorded runs \(3 completed\)\.\n# 1 sub-agent run left out: /);
    expect(profile).toMatch(/^# Warning: runs of 2 models pooled: /m);
    expect(profile).toMatch(/^# Warning: 1 of 3 recorded runs compacted their context/m);
    expect(profile).not.toMatch(/claude-sonnet/);
    const text = await cli('fit', SESSION, '--out', join(dir, 'again.yaml'));
    expect(flat(text.stderr)).toMatch(/warning: runs of 2 models pooled: .*warning: 1 of 3 recorded runs compacted their context/);
  });

  it("a sub-agent's transcript on its own is fitted: none of its runs left out, no compaction; the one warning names the session transcript not given", async () => {
    const r = await cli('fit', SUBAGENT, '--out', join(tempDir(), 'sub.yaml'));
    expect(r.code, r.stderr).toBe(0);
    const warnings = flat(r.stderr).match(/warning:/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(flat(r.stderr)).toMatch(/warning: \S+agent-aac57f5\.jsonl#agent-aac57f5: a sub-agent transcript read on its own, its session's transcript not read/);
    expect(r.stderr).not.toMatch(/compaction/);
    expect(r.stderr).not.toMatch(/runs? left out|left out \d/);
  });

  it('runs of two agents pooled (mini-swe-agent and Claude Code): warned, each with its runs', async () => {
    const r = await cli('fit', ...MINI, SESSION, '--out', join(tempDir(), 'mixed.yaml'));
    expect(r.code, r.stderr).toBe(0);
    expect(flat(r.stderr)).toMatch(/warning: runs of 2 agents pooled: claude-code \(3 runs\), mini-swe-agent \(3 runs\);/);
    expect(flat(r.stderr)).toMatch(/warning: runs of 4 models pooled: claude-opus-4-6 \(2 runs\), deepseek\/deepseek-reasoner \(2 runs\), claude-haiku-4-5-20251001 \(1 run\), deepseek\/deepseek-chat \(1 run\); the profile is of claude-opus-4-6/);
  });
});

describe("fit's context-window warning speaks of the profile's model's runs", () => {
  /** The fixtures' prices with deepseek-reasoner's (the profile's model's) window set. */
  function prices(dir: string, reasonerWindowTokens: number): string {
    const table = JSON.parse(readFileSync('test/fixtures/prices/deepseek-recorded.json', 'utf8'));
    table['deepseek/deepseek-reasoner'].max_input_tokens = reasonerWindowTokens;
    const path = join(dir, `prices-${reasonerWindowTokens}.json`);
    writeFileSync(path, JSON.stringify(table));
    return path;
  }

  it('a deepseek-chat prompt past the reasoner profile\'s window is no warning of it', async () => {
    const dir = tempDir();
    const r = await cli('fit', ...MINI, '--prices', prices(dir, 12_000), '--out', join(dir, 'p.yaml'));
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'p.yaml'), 'utf8')).toMatch(/^model: deepseek\/deepseek-reasoner$/m);
    expect(r.stderr).not.toMatch(/context window less max_tokens/);
  });

  it("a reasoner prompt past it is, counted among the reasoner's runs", async () => {
    const dir = tempDir();
    const r = await cli('fit', ...MINI, '--prices', prices(dir, 8_000), '--out', join(dir, 'p.yaml'));
    expect(r.code, r.stderr).toBe(0);
    expect(flat(r.stderr)).toMatch(
      /recorded prompts of runs made on deepseek\/deepseek-reasoner, the profile's model, pass its context window less max_tokens \(8,000 − 4,096 = 3,904 tokens\) in 1 of the 2 runs made on it \(up to 5,023 tokens\)/,
    );
  });
});

describe('compactionWarnings', () => {
  const run = (compaction: boolean): Trace =>
    ({ source: 'r', header: { type: 'header', schema: 'loopcost.trace/1', model: 'm', systemTokens: 0, goalTokens: 0 }, calls: [{ type: 'call', inputTokens: 900, outputTokens: 5, ...(compaction ? { compaction: true } : {}) }], end: { type: 'end', outcome: 'completed' } }) as unknown as Trace;

  it('says nothing when no run compacted or when the profile summarises', () => {
    expect(compactionWarnings([run(false)], 'full')).toEqual([]);
    expect(compactionWarnings([run(true)], 'summary:trigger=900,keep=2,tokens=50')).toEqual([]);
    expect(compactionWarnings([run(true)], 'hybrid:mask=3,trigger=900,keep=2,tokens=50')).toEqual([]);
  });

  it('warns of a window or mask profile too (neither summarises)', () => {
    expect(compactionWarnings([run(true), run(false)], 'window:5')[0]!.message).toMatch(/^1 of 2 recorded runs compacted their context \(1 compaction call, at prompts of 900 tokens\), but the profile's context is window:5/);
  });
});
