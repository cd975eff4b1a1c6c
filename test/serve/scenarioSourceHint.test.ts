/**
 * `startServer({ sources: { scenario: loadScenarioFile(path) } })` was refused with the hint "give { scenario:
 * loadScenarioFile(path) }" — what the user had written. The scenario goes one level down, `{ scenario: { scenario,
 * settings? } }`: a loaded scenario given as it is is now told to be wrapped, with the line to write, and that line
 * (copied from the hint) starts the server; anything else given there gets the same line.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { scenarioSettings } from '../../src/scenario/settings.js';
import { startServer, type RunningServer, type ServeOptions } from '../../src/serve/index.js';

const SCENARIO = 'scenarios/springfield-weather.yaml';
const prices = loadPriceTable();
const started: RunningServer[] = [];
afterAll(() => Promise.all(started.map((server) => server.close())));

async function refusal(sources: unknown): Promise<UserError> {
  try {
    started.push(await startServer({ sources, prices, port: 0 } as ServeOptions));
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error(`startServer accepted ${JSON.stringify(sources).slice(0, 80)}`);
}

const WRITTEN = 'sources: { scenario: { scenario: loadScenarioFile(path) } }; its seed and strategy, if given, beside it: { scenario, settings: scenarioSettings(scenario, { seed: 7 }) }';

describe('startServer: a scenario source in the wrong shape says what to write', () => {
  it('a loaded scenario given as it is: told to wrap it, in the words to write', async () => {
    const scenario = loadScenarioFile(SCENARIO);
    const error = await refusal({ scenario });
    expect(error.issues).toEqual([
      { file: '<startServer options>', field: 'sources.scenario', code: 'invalid_value', message: 'is a loaded scenario given as it is, not { scenario, settings? }', hint: `wrap it: ${WRITTEN}` },
    ]);
    expect(error.message).not.toMatch(/give \{ scenario: loadScenarioFile\(path\) \}/);
  });

  it('what the hint says to write starts the server, with and without settings', async () => {
    const scenario = loadScenarioFile(SCENARIO);
    const server = await startServer({ sources: { scenario: { scenario } }, prices, port: 0 });
    started.push(server);
    expect(server.port).toBeGreaterThan(0);
    started.push(await startServer({ sources: { scenario: { scenario, settings: scenarioSettings(scenario, { seed: 7 }) } }, prices, port: 0 }));
  });

  it('anything else there (a path) gets the same line to write', async () => {
    const error = await refusal({ scenario: SCENARIO });
    expect(error.issues[0]).toMatchObject({ field: 'sources.scenario', message: `"${SCENARIO}" is not { scenario, settings? }`, hint: `give ${WRITTEN}` });
  });

  it('no sources at all: both ways written out', async () => {
    const error = await refusal({});
    expect(error.issues[0]!.hint).toBe('give { traces: await loadTraceFile(path) } or { scenario: { scenario: loadScenarioFile(path) } }');
  });
});
