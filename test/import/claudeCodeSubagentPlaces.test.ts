/**
 * Where a Claude Code sub-agent's run stands, on the 2.0.x project of test/fixtures/claude-code-20 (a real
 * session, its sub-agent file beside it):
 * - a warm-up agent (a sub-agent file naming the session whose prompt is `Warmup`, which Claude Code starts
 *   to fill the prompt cache, no Task call starting it; anthropics/claude-code#17457) counts in its
 *   session, unlinked, named `warmup-<id>` in its source and a note;
 * - a sub-agent run whose model no price table knows names the sub-agent's own file and line (its source is
 *   the session's), and the field as Claude Code writes it (`message.model`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { pricingFor } from '../../src/cli/actions/runNotes.js';
import { bundledPriceTable } from '../../src/pricing/genaiPrices.js';
import { UserError } from '../../src/errors.js';
import { collectAsync } from '../helpers.js';
import { AGENT, FIXTURE_DIR, projectCopy, SESSION } from './claudeCode20Fixture.js';

const WARMUP = 'a6e4019';


/** The fixture's sub-agent file as a warm-up agent's: its own id, the prompt `Warmup`, started before the session's first call. */
function addWarmup(dir: string): string {
  const text = readFileSync(join(FIXTURE_DIR, `agent-${AGENT}.jsonl`), 'utf8')
    .replaceAll(AGENT, WARMUP)
    .replace('"content":"Research scrolling implementation (built for the loopcost fixture)"', '"content":"Warmup"')
    .replaceAll('2025-10-30T12:04:', '2025-10-30T11:59:');
  const file = join(dir, `agent-${WARMUP}.jsonl`);
  writeFileSync(file, text);
  return file;
}

describe('Claude Code: a warm-up agent beside its session', () => {
  it('counts in its session, unlinked, named warmup-<id>, and a note says what it is', async () => {
    const { dir, session } = projectCopy();
    const warmupFile = addWarmup(dir);
    const runs = await collectAsync(loadTraceFiles([session]));
    expect(runs.map((run) => run.source)).toEqual([`${session}#main`, `${session}#warmup-${WARMUP}`, `${session}#agent-${AGENT}`]);
    const warm = runs[1]!;
    expect(warm.header.agent).toEqual({ sessionId: SESSION, agentId: WARMUP, kind: 'subagent' });
    expect(warm.header.task).toBe(`${SESSION}/warmup-${WARMUP}`);
    expect(warm.header.importedFrom?.path).toBe(warmupFile);
    expect(warm.header.importedFrom?.notes).toContain(
      `sub-agent ${WARMUP} is a warm-up agent (its prompt is "Warmup": Claude Code starts it to fill the prompt cache, no Task call did): its calls count in the session's totals, unlinked (no parent tool call), as warmup-${WARMUP}`,
    );
    expect(runs.flatMap((run) => run.header.importedFrom?.notes ?? []).join('\n')).not.toMatch(/imported unlinked/);
    // The linked sub-agent is unchanged.
    expect(runs[2]!.header.agent).toMatchObject({ agentId: AGENT, parentAgentId: 'main' });
  });

  it('a sub-agent file no Task call started whose prompt is not Warmup stays an unlinked agent-<id>', async () => {
    const { dir, session } = projectCopy();
    const file = addWarmup(dir);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"content":"Warmup"', '"content":"Warm up the cache"'));
    const runs = await collectAsync(loadTraceFiles([session]));
    expect(runs.map((run) => run.source)).toContain(`${session}#agent-${WARMUP}`);
    expect(runs.flatMap((run) => run.header.importedFrom?.notes ?? []).join('\n')).toMatch(new RegExp(`names sub-agent ${WARMUP}: imported unlinked`));
  });
});

describe('Claude Code: an unknown model in a sub-agent file', () => {
  it('names the sub-agent file and the line its model was read from, as message.model', async () => {
    const { session, agent } = projectCopy();
    writeFileSync(agent, readFileSync(agent, 'utf8').replace(/"model":"claude-[^"]+"/g, '"model":"claude-mystery-9"'));
    const line = readFileSync(agent, 'utf8').split('\n').findIndex((text) => text.includes('claude-mystery-9')) + 1;
    expect(line).toBe(2);
    const runs = await collectAsync(loadTraceFiles([session]));
    const sub = runs.find((run) => run.header.agent?.agentId === AGENT)!;
    expect(sub.source).toBe(`${session}#agent-${AGENT}`);
    let thrown: unknown;
    try {
      pricingFor(sub, { prices: bundledPriceTable() });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as UserError).issues[0]).toMatchObject({ file: agent, line: 2, field: 'message.model' });
    expect((thrown as UserError).issues[0]!.message).toMatch(/unknown model 'claude-mystery-9'/);
    // The main agent's own runs keep their header line in the session file.
    expect(runs[0]!.headerLine).toBeGreaterThan(0);
    expect(runs[0]!.modelPlace).toBeUndefined();
  });
});
