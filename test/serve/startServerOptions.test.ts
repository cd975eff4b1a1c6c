/**
 * startServer checks every option before it listens, by the same rule the `serve` flags are checked with
 * (src/serve/options.ts): an empty host, a session cap below 1, an idle time that is not whole seconds, a
 * cache mode that is none, a body limit below 1, missing sources — each a UserError naming the option,
 * every problem at once, and no port opened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { startServer, type RunningServer, type ServeOptions } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { cli } from '../cli/run.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';
const prices = loadPriceTable();
let traces: Trace[];
const started: RunningServer[] = [];
beforeAll(async () => {
  traces = (await loadTraceFile(TRACE)) as Trace[];
});
afterAll(() => Promise.all(started.map((server) => server.close())));

/** TCP servers listening in this process (a server that listened and was never closed adds one). */
const listening = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

/** startServer's UserError for `options`, checked to have opened no port. */
async function refused(options: unknown): Promise<UserError> {
  const before = listening();
  let error: unknown;
  try {
    started.push(await startServer(options as ServeOptions));
  } catch (caught) {
    error = caught;
  }
  expect(listening(), 'a port was opened').toBe(before);
  expect(error, `accepted ${JSON.stringify(options)}`).toBeInstanceOf(UserError);
  return error as UserError;
}

describe('startServer refuses bad options before listening', () => {
  it('each bad option: a UserError naming it, with a hint, and no port opened', async () => {
    const cases: [Partial<Record<keyof ServeOptions, unknown>>, string, RegExp][] = [
      [{ host: '' }, 'host', /"" is empty: it would listen on every interface/],
      [{ host: '  ' }, 'host', /is empty/],
      [{ host: 80 }, 'host', /80 is not an address/],
      [{ port: -1 }, 'port', /-1 is not a port \(a whole number from 0 to 65535\)/],
      [{ port: 65536 }, 'port', /not a port/],
      [{ port: 1.5 }, 'port', /not a port/],
      [{ maxSessions: 0 }, 'maxSessions', /0 is not a whole number greater than 0/],
      [{ maxSessions: -1 }, 'maxSessions', /-1 is not a whole number greater than 0/],
      [{ maxSessions: Infinity }, 'maxSessions', /Infinity is too large: at most 9007199254740991/],
      [{ sessionIdleSeconds: NaN }, 'sessionIdleSeconds', /NaN is not a whole number greater than 0/],
      [{ sessionIdleSeconds: -1 }, 'sessionIdleSeconds', /-1 is not/],
      [{ sessionIdleSeconds: 0 }, 'sessionIdleSeconds', /0 is not/],
      [{ cache: 'maybe' }, 'cache', /"maybe" is not one of on, off, recorded/],
      [{ maxBodyBytes: -5 }, 'maxBodyBytes', /-5 is not a whole number greater than 0/],
      [{ maxBodyBytes: 0 }, 'maxBodyBytes', /0 is not/],
      [{ nowMs: 5 }, 'nowMs', /is not a function/],
    ];
    for (const [bad, field, message] of cases) {
      const error = await refused({ sources: { traces }, prices, port: 0, ...bad });
      expect(error.issues, JSON.stringify(bad)).toHaveLength(1);
      const [issue] = error.issues;
      expect(issue).toMatchObject({ file: '<startServer options>', field });
      expect(issue!.message).toMatch(message);
      expect(issue!.hint).toBeTruthy();
      expect(issue!.code).toMatch(/^invalid_/);
    }
  });

  it('sources and prices: missing, empty, both kinds, not traces — named, not a TypeError', async () => {
    const scenario = loadScenarioFile('scenarios/keeps-asking.yaml');
    const cases: [unknown, string, RegExp][] = [
      [{ prices, port: 0 }, 'sources', /is missing/],
      [{ sources: {}, prices }, 'sources', /neither traces nor a scenario/],
      [{ sources: { traces: [] }, prices }, 'sources.traces', /is empty/],
      [{ sources: { traces: 'run.jsonl' }, prices }, 'sources.traces', /"run.jsonl" is not an array/],
      [{ sources: { traces: [{}] }, prices }, 'sources.traces[0]', /is not a trace/],
      [{ sources: { traces, scenario: { scenario } }, prices }, 'sources', /both traces and a scenario/],
      [{ sources: { scenario: { scenario } }, prices, cache: 'on' }, 'cache', /recorded traces only/],
      [{ sources: { traces } }, 'prices', /has no price table/],
      [{ sources: { traces }, prices: {} }, 'prices', /is not a price table/],
    ];
    for (const [options, field, message] of cases) {
      const error = await refused(options);
      expect(error.issues.map((issue) => issue.field), JSON.stringify(options)).toEqual([field]);
      expect(error.issues[0]!.message).toMatch(message);
    }
  });

  it('a misspelt key: refused by name with the key it means (options/rules.ts unknownKeyIssues), no port opened', async () => {
    const error = await refused({ sources: { traces }, prices, port: 0, maxSession: 1, sessionIdleSecond: 5 });
    expect(error.issues.map((issue) => [issue.field, issue.code, issue.message])).toEqual([
      ['maxSession', 'unrecognized_keys', 'unknown option "maxSession"'],
      ['sessionIdleSecond', 'unrecognized_keys', 'unknown option "sessionIdleSecond"'],
    ]);
    expect(error.issues[0]!.hint).toMatch(/did you mean maxSessions\?/);
    expect(error.issues[1]!.hint).toMatch(/did you mean sessionIdleSeconds\?/);
    expect(error.issues[0]).toMatchObject({ file: '<startServer options>' });
  });

  it('every problem at once, one issue each, in one message', async () => {
    const error = await refused({ sources: { traces }, prices, host: '', maxSessions: 0, sessionIdleSeconds: NaN, cache: 'maybe', maxBodyBytes: -5 });
    expect(error.issues.map((issue) => issue.field)).toEqual(['host', 'cache', 'maxSessions', 'sessionIdleSeconds', 'maxBodyBytes']);
    expect(error.message.split('\n')).toHaveLength(5);
  });

  it('good options still start: a named host, any port, every cache mode, limits of 1', async () => {
    for (const cache of ['on', 'off', 'recorded'] as const) {
      const server = await startServer({ sources: { traces }, prices, host: '127.0.0.1', port: 0, cache, maxSessions: 1, sessionIdleSeconds: 1, maxBodyBytes: 1_000_000, nowMs: () => 0 });
      started.push(server);
      expect((await fetch(`${server.url}/v1/models`)).status).toBe(200);
    }
  });
});

describe('the serve flags are checked by the same rules', () => {
  it('every bad flag named at once, with the hint of its option, exit 2, before any input is read', async () => {
    const r = await cli('serve', 'no-such-file.jsonl', '--host', '', '--port', '70000', '--cache', 'maybe', '--max-sessions', '-1', '--session-idle-seconds', '1.5');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    for (const line of [
      "field '--host': '' is empty: it would listen on every interface",
      "field '--port': '70000' is not a port (a whole number from 0 to 65535)",
      "field '--cache': 'maybe' is not one of on, off, recorded",
      "field '--max-sessions': '-1' is not a whole number greater than 0 (the most sessions in progress at once",
      "field '--session-idle-seconds': '1.5' is not a whole number greater than 0",
    ]) {
      expect(r.stderr).toContain(line);
    }
    expect(r.stderr).not.toContain('no-such-file');
  });

  it("a scenario's runs take --cache on or off, not recorded", async () => {
    const r = await cli('serve', 'scenarios/keeps-asking.yaml', '--cache', 'recorded', '--check');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field '--cache': 'recorded' is not one of on, off for a scenario's runs/);
    const on = await cli('serve', 'scenarios/keeps-asking.yaml', '--cache', 'on', '--check');
    expect(on.code, on.stderr).toBe(0);
  });
});
