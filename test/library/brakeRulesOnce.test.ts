/**
 * The library refuses the brake settings the command line refuses, by the same rules (brakes/rules.ts).
 * Before, `brakeConfig({ repeatMode: 'consecutive', budgetMode: 'predict' })` was accepted silently (the CLI:
 * `--repeat-mode: has no effect without --max-repeat`), and runAgentLoop ran `{ maxCostPico: 0 }` for 0 steps
 * ("budget $0.000000 spent, limit $0.000000") and took `timeoutMs: 0` (the CLI: `'0' is not a number greater
 * than 0`), while `maxSteps: 0` was refused. Now each case the CLI refuses is a UserError naming the library's
 * own function and field, saying the rule in the CLI's words; the CLI still refuses each.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { AgentLoopOptions } from '../../src/agent/types.js';
import { brakeConfig, type BrakeSettings } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { usdToPico } from '../../src/money.js';
import { cli } from '../cli/run.js';
import { MINI, userErrorOf } from '../helpers.js';
import { answer, ScriptedModel } from '../agent/scripted.js';

const TRACE = 'scenarios/reverify-forever.jsonl';

/** A setting the CLI refuses: the library's settings, the flags that say the same, the setting and flag named, the rule's words in both. */
interface Case {
  label: string;
  settings: BrakeSettings;
  flags: string[];
  key: string;
  flag: string;
  rule: RegExp;
}

const NOT_ABOVE_ZERO = /is not a (whole )?number (of \w+ )?greater than 0/;
const NO_EFFECT = /has no effect without/;

const CASES: Case[] = [
  { label: 'a budget of 0', settings: { maxCostPico: 0 }, flags: ['--max-cost', '0'], key: 'maxCostPico', flag: '--max-cost', rule: NOT_ABOVE_ZERO },
  { label: 'a timeout of 0', settings: { maxSteps: 5, timeoutMs: 0 }, flags: ['--max-steps', '5', '--timeout', '0'], key: 'timeoutMs', flag: '--timeout', rule: NOT_ABOVE_ZERO },
  { label: 'a step cap of 0', settings: { maxSteps: 0 }, flags: ['--max-steps', '0'], key: 'maxSteps', flag: '--max-steps', rule: NOT_ABOVE_ZERO },
  { label: 'a token cap of 0', settings: { maxTokens: 0 }, flags: ['--max-tokens', '0'], key: 'maxTokens', flag: '--max-tokens', rule: NOT_ABOVE_ZERO },
  { label: 'a repeat limit of 0', settings: { maxSteps: 5, maxRepeat: 0 }, flags: ['--max-steps', '5', '--max-repeat', '0'], key: 'maxRepeat', flag: '--max-repeat', rule: NOT_ABOVE_ZERO },
  { label: 'a context window of 0', settings: { maxSteps: 5, contextWindow: 0 }, flags: ['--max-steps', '5', '--context-window', '0'], key: 'contextWindow', flag: '--context-window', rule: NOT_ABOVE_ZERO },
  { label: 'a repeat mode without its brake', settings: { maxSteps: 5, repeatMode: 'consecutive' }, flags: ['--max-steps', '5', '--repeat-mode', 'consecutive'], key: 'repeatMode', flag: '--repeat-mode', rule: NO_EFFECT },
  { label: 'a budget mode without a budget', settings: { maxSteps: 5, budgetMode: 'predict' }, flags: ['--max-steps', '5', '--budget-mode', 'predict'], key: 'budgetMode', flag: '--budget-mode', rule: NO_EFFECT },
  { label: 'a same-error mode without its brake', settings: { maxSteps: 5, sameErrorMode: 'total' }, flags: ['--max-steps', '5', '--same-error-mode', 'total'], key: 'sameErrorMode', flag: '--same-error-mode', rule: NO_EFFECT },
  { label: 'the skip action without a repeat limit', settings: { maxSteps: 5, repeatAction: 'skip' }, flags: ['--max-steps', '5', '--repeat-action', 'skip'], key: 'repeatAction', flag: '--repeat-action', rule: NO_EFFECT },
  { label: 'a skip limit under the stop action', settings: { maxSteps: 5, maxRepeat: 3, repeatAction: 'stop', maxSkips: 2 }, flags: ['--max-steps', '5', '--max-repeat', '3', '--repeat-action', 'stop,max-skips=2'], key: 'maxSkips', flag: '--repeat-action', rule: /'skip'.*max-skips|max-skips.*'skip'/ },
];

const loopOptions = (brakes: BrakeSettings, model = new ScriptedModel([answer('done')])): AgentLoopOptions => ({ model, tools: [], brakes, context: { system: 's', goal: 'g' }, pricing: MINI, clock: new VirtualClock() });

async function loopRefusal(brakes: BrakeSettings): Promise<{ error: UserError; calls: number }> {
  const model = new ScriptedModel([answer('done')]);
  const error = await runAgentLoop(loopOptions(brakes, model)).then(
    () => new Error('the run was accepted'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserError);
  return { error: error as UserError, calls: model.requests.length };
}

describe('brake settings the command line refuses, the library refuses by the same rule', () => {
  it.each(CASES)('$label: the CLI refuses it at its flag', async ({ flags, flag, rule }) => {
    const out = await cli('replay', TRACE, ...flags);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(`field '${flag}'`);
    expect(out.stderr).toMatch(rule);
  });

  it.each(CASES)('$label: brakeConfig refuses it at its own argument, in the same words', ({ settings, key, rule }) => {
    const error = userErrorOf(() => brakeConfig(settings));
    expect(error.issues.map((issue) => [issue.file, issue.field])).toEqual([['<brakeConfig arguments>', `settings.${key}`]]);
    expect(error.issues[0]!.message).toMatch(rule);
  });

  it.each(CASES)('$label: runAgentLoop refuses it at its option before any call', async ({ settings, key, rule }) => {
    const { error, calls } = await loopRefusal(settings);
    expect(error.issues.map((issue) => [issue.file, issue.field])).toEqual([['<runAgentLoop options>', `brakes.${key}`]]);
    expect(error.issues[0]!.message).toMatch(rule);
    expect(calls).toBe(0);
  });

  it('what the flags take, the library takes: defaults given alone, 0 where a flag takes 0, modes beside their brakes', async () => {
    const taken: BrakeSettings[] = [
      { maxSteps: 5, repeatMode: 'total', budgetMode: 'check', sameErrorMode: 'consecutive', repeatAction: 'stop' },
      { maxSteps: 5, maxBacktracks: 0, maxRepeat: 3, repeatAction: 'skip', maxSkips: 0, skipWarningTokens: 0 },
      { maxCostPico: 1, budgetMode: 'predict', maxRepeat: 2, repeatMode: 'cycle', maxSameError: 2, sameErrorMode: 'total', timeoutMs: 0.5 },
    ];
    for (const settings of taken) {
      expect(() => brakeConfig(settings)).not.toThrow();
      await expect(runAgentLoop(loopOptions(settings)), JSON.stringify(settings)).resolves.toHaveProperty('stop');
    }
  });

  it('a budget mode beside a per-agent budget (subagentLimits.maxCostPico) binds, as --budget-mode beside --tree --subagent-max-cost: taken', async () => {
    const sub = defineSubagentTool({ name: 'research', description: 'researches', parameters: { type: 'object' }, agent: () => ({ agentId: 'r', model: new ScriptedModel([answer('found')]), context: { system: 's', goal: 'g' } }) });
    const run = await runAgentLoop({ ...loopOptions({ maxSteps: 5, budgetMode: 'predict' }), tools: [sub], subagentLimits: { maxCostPico: usdToPico(0.01) } });
    expect(run.stop.reason).toBe('completed');
    const { error } = await loopRefusal({ maxSteps: 5, budgetMode: 'predict' });
    expect(error.issues[0]!.field).toBe('brakes.budgetMode');
  });
});
