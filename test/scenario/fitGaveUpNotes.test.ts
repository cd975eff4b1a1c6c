/**
 * fit's notes on the runs that gave up (fitGaveUp.ts): the retrier that gives up draws no tool-call shares,
 * so the tool-call line leaves its runs out and says so (before: it listed the group's shares, which its
 * entry never draws); and "The other completed runs did their task …" is said only when there are some
 * (before: also when every completed run gave up).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { GAVE_UP_GROUP } from '../../src/scenario/fitGaveUp.js';
import { collectAsync } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const HEALTHY = `  - behaviour: healthy
    weight: 50
    steps: { kind: uniform, min: 3, max: 8 }
    errorShare: 0.05
    outputTokens: 100
    toolResultTokens: 300
`;
const RETRIER = `  - behaviour: retrier
    weight: 50
    tool: get_weather
    error: "LocationNotFound"
    leadSteps: { kind: uniform, min: 1, max: 3 }
    givesUpAfter: 6
    variants: [{ city: Springfield }, { city: "Springfield, IL" }]
    outputTokens: 80
    toolResultTokens: 40
`;

const prices = loadPriceTable({});

/** fit's notes on 20 runs generated from `population`. */
async function notesOf(population: string): Promise<string[]> {
  const dir = tempDir();
  const file = join(dir, 's.yaml');
  writeFileSync(file, `scenario: loopcost.scenario/1\nname: gave up\nmodel: gpt-4o-mini\nprovider: openai\nsystemTokens: 400\npopulation:\n${population}`);
  const out = join(dir, 'gen.jsonl');
  const wrote = await cli('generate', file, '--runs', '20', '--seed', '5', '--out', out);
  if (wrote.code !== 0) throw new Error(wrote.stderr);
  const traces = await collectAsync(loadTraceFiles(collectInputs([out])));
  return fitScenario(traces, (trace) => resolveTracePricing(trace, { prices })).notes;
}

const OTHERS = 'The other completed runs did their task';

describe("fit's notes on the runs that gave up", () => {
  it('with runs that did their task: the tool-call line leaves the gave-up group out and says so; the others are named', async () => {
    const notes = await notesOf(HEALTHY + RETRIER);
    const tools = notes.find((n) => n.startsWith('Tool calls:'))!;
    expect(tools).toContain("'completed' ");
    expect(tools).not.toMatch(new RegExp(`'${GAVE_UP_GROUP}' [\\d,]+ calls`));
    expect(tools).toMatch(new RegExp(`Left out: the '${GAVE_UP_GROUP}' group's \\d+ runs draw no tool-call shares`));
    expect(notes.find((n) => n.includes(`the group '${GAVE_UP_GROUP}'`))).toContain(OTHERS);
  });

  it('every run gave up: no shares line of the group, and no "other completed runs"', async () => {
    const notes = await notesOf(RETRIER);
    const tools = notes.find((n) => n.startsWith('Tool calls:'))!;
    expect(tools).toBe(`Tool calls: the '${GAVE_UP_GROUP}' group's 20 runs draw no tool-call shares (a retrier: its calls are its leadSteps and its failing attempts).`);
    const gaveUp = notes.find((n) => n.includes(`the group '${GAVE_UP_GROUP}'`))!;
    expect(gaveUp).not.toContain(OTHERS);
  });
});
