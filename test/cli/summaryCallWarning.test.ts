/**
 * What a summary strategy did on recorded runs, read off the replays (report/summaryCallWarning.ts): a summary
 * call before most steps (`summary_most_steps`: the K kept steps alone pass the trigger, or the trigger is
 * below the fixed prompt) and no summary call at all (`summary_none`: keep ≥ the run's steps, or a trigger
 * never passed), said by replay (and the library's replayWarnings), whatif, contexts and sweep (and merge).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';
import { type Warning, warningsOf } from './jsonWarnings.js';
import { replayWarnings } from '../../src/cli/actions/replayWarnings.js';
import { parseContextSpec } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { NO_BRAKES } from '../../src/brakes/config.js';


/** A 30-step recorded run: 3,000 system + 200 goal tokens, each step 200 output + 1,500 tool-result tokens (the review's C.jsonl). */
function thirtySteps(): string {
  const lines: object[] = [{ type: 'header', schema: 'loopcost.trace/1', model: 'claude-sonnet-4', provider: 'anthropic', systemTokens: 3000, goalTokens: 200, origin: 'recorded', task: 'C' }];
  let history = 0;
  for (let i = 0; i < 30; i++) {
    const last = i === 29;
    lines.push({ type: 'call', outputTokens: 200, inputTokens: 3700 + history, ...(last ? { final: true } : { toolCalls: [{ name: 'sh', arguments: { cmd: `step${i}` }, resultTokens: 1500 }] }) });
    history += 200 + (last ? 0 : 1500);
  }
  lines.push({ type: 'end', outcome: 'completed' });
  const file = join(tempDir(), 'C.jsonl');
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

const summaryOnes = (warnings: readonly Warning[]): Warning[] => warnings.filter((w) => w.code.startsWith('summary_'));

/** keep=5 steps of 1,700 tokens pass trigger=10000 with the 3,200 fixed and 1,000 summary tokens: a summary before nearly every step. */
const EVERY_STEP = 'summary:trigger=10000,keep=5,tokens=1000';
/** keep=50 ≥ the run's 30 steps: nothing before the kept steps to summarise, so no summary call. */
const NEVER = 'summary:trigger=10000,keep=50,tokens=1000';

describe('summary calls read off the replay', () => {
  it('replay: a summary before most steps is said with the calls and steps; keep past the run says no summary was made; a fitting trigger says nothing', async () => {
    const file = thirtySteps();
    const most = summaryOnes(await warningsOf('replay', file, '--context', EVERY_STEP));
    expect(most).toEqual([
      {
        code: 'summary_most_steps',
        message: expect.stringMatching(/^context summary:trigger=10000,keep=5,tokens=1000: a summary call before most steps in the recorded run \(24 summary calls in 30 steps\): .*keep=5 kept steps.*trigger=10000/),
      },
    ]);
    const none = summaryOnes(await warningsOf('replay', file, '--context', NEVER));
    expect(none).toEqual([{ code: 'summary_none', message: expect.stringMatching(/^context summary:trigger=10000,keep=50,tokens=1000: no summary call in the recorded run: .*keep=50/) }]);
    expect(summaryOnes(await warningsOf('replay', file, '--context', 'summary:trigger=30000,keep=3,tokens=1000'))).toEqual([]);
    expect(summaryOnes(await warningsOf('replay', file, '--context', 'window:5'))).toEqual([]);
  });

  it("the library's replayWarnings gives replay's, from the results it is given", async () => {
    const file = thirtySteps();
    const [trace] = await loadTraceFile(file);
    const prices = loadPriceTable();
    const strategy = parseContextSpec(EVERY_STEP);
    const results = [replayTrace(trace!, { brakes: NO_BRAKES, strategy, prices })];
    const said = replayWarnings([trace!], { brakes: NO_BRAKES, strategy, prices, results, inputs: [file] });
    expect(said).toEqual(await warningsOf('replay', file, '--context', EVERY_STEP));
    expect(summaryOnes(said).map((w) => w.code)).toEqual(['summary_most_steps']);
  });

  it('whatif, contexts and sweep (and merge) say them as replay does', async () => {
    const file = thirtySteps();
    const replayed = summaryOnes(await warningsOf('replay', file, '--context', EVERY_STEP));
    expect(summaryOnes(await warningsOf('whatif', file, '--context', EVERY_STEP, '--try', 'max-steps=10'))).toEqual(replayed);
    const neverReplayed = summaryOnes(await warningsOf('replay', file, '--context', NEVER));
    expect(summaryOnes(await warningsOf('contexts', file, '--compare-context', `full;${EVERY_STEP};${NEVER}`))).toEqual([...replayed, ...neverReplayed]);
    // A sweep keeps a configuration's totals only: no calls under a strategy in any run is what it can say.
    const grid = ['--grid', `context=full,${NEVER},${EVERY_STEP}`];
    const swept = summaryOnes(await warningsOf('sweep', file, ...grid));
    expect(swept).toEqual([{ code: 'summary_none', message: expect.stringMatching(/^context summary:trigger=10000,keep=50,tokens=1000: no summary call in the run: /) }]);
    const dir = tempDir();
    for (const k of [1, 2]) expect((await cli('sweep', file, ...grid, '--shard', `${k}/2`, '--out', join(dir, `s${k}.json`))).code).toBe(0);
    expect(summaryOnes(await warningsOf('merge', join(dir, 's1.json'), join(dir, 's2.json')))).toEqual(swept);
  });
});
