/**
 * "model switch not judged" says what is true of an old baseline (no `contextWindowTokens`) under
 * `context-window: model`: when its models are known and changed, that they changed; when the baseline cannot
 * tell them (no models of the scenario's own and several priced in the file), that whether they changed could
 * not be told — not that they changed. JSON keeps `drift.modelSwitchNotJudged` (both) and names the second
 * kind in `drift.modelsUnknown`.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelSwitchLines } from '../../src/check/contextLimitLoosened.js';
import { cli, tempDir } from '../cli/run.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');
const JUDGED = 'the limit was judged at the windows of the models run now; write the baseline again with --update-baseline b.json to judge a model switch';
const CHANGED = `its models changed under context-window=model, and the baseline holds no context windows (written before baselines held them): ${JUDGED}`;
const UNTOLD = `the baseline cannot tell which models its runs were priced at (it names none for the scenario, and it priced several models or none, or the scenario had no runs), so whether they changed under context-window=model could not be told, and it holds no context windows (written before baselines held them): ${JUDGED}`;

/** The bundled flight search under `context-window: model`, its baseline as one written before baselines held windows or each scenario's models, pricing two models. */
async function untoldGate(): Promise<{ file: string; baseline: string }> {
  const dir = tempDir();
  const file = join(dir, 'flight.yaml');
  copyFileSync('scenarios/flight-search.yaml', file);
  writeFileSync(file, readFileSync(file, 'utf8').replace('brakes: { preset: reference }', 'brakes: { preset: reference, context-window: model }'));
  const baseline = join(dir, 'baseline.json');
  expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
  const stored = JSON.parse(readFileSync(baseline, 'utf8'));
  for (const scenario of stored.scenarios) {
    delete scenario.contextWindowTokens;
    delete scenario.models;
  }
  stored.models.push({ ...stored.models[0], model: 'gpt-4.1-nano', pricedAs: 'gpt-4.1-nano' });
  writeFileSync(baseline, JSON.stringify(stored, null, 2) + '\n');
  return { file, baseline };
}

describe('model switch not judged: the models changed, or could not be told', () => {
  it('each kind in its own words, the changed ones as before', () => {
    const drift = { file: 'b.json', modelSwitchNotJudged: ['a.yaml', 'u.yaml', 'c.yaml'], modelsUnknown: ['u.yaml'] };
    expect(modelSwitchLines(drift)).toEqual([`model switch not judged: 2 scenarios (a.yaml, c.yaml): ${CHANGED}`, `model switch not judged: 1 scenario (u.yaml): ${UNTOLD}`]);
    expect(modelSwitchLines({ file: 'b.json', modelSwitchNotJudged: ['a.yaml'] })).toEqual([`model switch not judged: 1 scenario (a.yaml): ${CHANGED}`]);
    expect(modelSwitchLines({ ...drift, accepted: 'b.json' })).toEqual([]);
  });

  it('a baseline that cannot tell its models says it could not tell whether they changed, not that they did', async () => {
    const { file, baseline } = await untoldGate();
    const r = await cli('check', file, '--baseline', baseline);
    expect(r.code, r.stdout).toBe(0);
    expect(flat(r.stdout)).toContain(`model switch not judged: 1 scenario (${file}): ${UNTOLD.replace('b.json', baseline)}`);
    expect(r.stdout).not.toContain('its models changed');
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--format', 'json')).stdout);
    expect([json.drift.modelSwitchNotJudged, json.drift.modelsUnknown]).toEqual([[file], [file]]);
  });
});
