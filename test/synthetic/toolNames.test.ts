/**
 * Every behaviour calls the tools synthetic/behaviours/toolNames.ts names for it, and an entry's `tool`
 * renames its own tool, for every behaviour (perfectionist and asker once ignored it); docs/scenarios.md
 * lists the same names.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { BEHAVIOURS } from '../../src/synthetic/agent.js';
import { BEHAVIOUR_TOOLS, LEAD_TOOL, toolsCalled } from '../../src/synthetic/behaviours/toolNames.js';
import { scenarioRuns } from '../../src/scenario/run.js';
import { entry, PRICES, scenarioOf } from './helpers.js';

/** Each behaviour's parameters, with a lead where it takes one: every tool it may call gets called. */
const PARAMS: Record<string, Record<string, unknown>> = {
  healthy: { steps: 6 },
  perfectionist: { repeatQuery: 0.5 },
  repeater: { leadSteps: 2 },
  retrier: { leadSteps: 2 },
  forgetful: { steps: 6, observationTokens: 500 },
  asker: { workSteps: 3 },
  backtracker: { steps: 6, backtrackShare: 0.3 },
  sloppy: { steps: 6, unparseableShare: 0.3 },
};

/** The tool names the runs of one entry call, in order of first call. */
function namesCalled(params: Record<string, unknown>): string[] {
  const scenario = scenarioOf({ hardCapSteps: 12, population: [entry(params.behaviour as string, params)] });
  const names = new Set<string>();
  for (const run of scenarioRuns(scenario, { prices: PRICES, runs: 20, seed: 1, brakes: NO_BRAKES }, true)) {
    for (const call of run.calls) for (const tool of call.toolCalls ?? []) names.add(tool.name);
  }
  return [...names];
}

describe('the tools each behaviour calls', () => {
  it.each(BEHAVIOURS)('%s: calls the tools toolsCalled lists, and no other', (behaviour) => {
    const params = { behaviour, ...PARAMS[behaviour] };
    expect(namesCalled(params).sort()).toEqual(toolsCalled(params as never).sort());
  });

  it.each(BEHAVIOURS)("%s: an entry's `tool` renames its own tool, the others keep their names", (behaviour) => {
    const params = { behaviour, ...PARAMS[behaviour], tool: 'my_tool' };
    const called = namesCalled(params);
    expect(called).toContain('my_tool');
    expect(called).not.toContain(BEHAVIOUR_TOOLS[behaviour].own);
    expect(called.sort()).toEqual(toolsCalled(params as never).sort());
  });

  it('perfectionist and asker: `tool` names the search and the message (kb_search, reply_customer)', () => {
    expect(namesCalled({ behaviour: 'perfectionist', repeatQuery: 0.3, tool: 'kb_search' }).sort()).toEqual(['judge_sources', 'kb_search']);
    expect(namesCalled({ behaviour: 'asker', workSteps: 3, tool: 'reply_customer' }).sort()).toEqual(['reply_customer', 'work']);
  });

  it('docs/scenarios.md lists each behaviour’s tools as toolNames.ts names them', () => {
    const docs = readFileSync('docs/scenarios.md', 'utf8');
    for (const behaviour of BEHAVIOURS) {
      const { own, others, lead } = BEHAVIOUR_TOOLS[behaviour];
      const row = docs.split('\n').find((line) => line.startsWith(`| \`${behaviour}\` | \`${own}\``));
      expect(row, behaviour).toBeDefined();
      for (const other of [...others, ...(lead ? [LEAD_TOOL] : [])]) expect(row, behaviour).toContain(`\`${other}\``);
    }
  });
});
