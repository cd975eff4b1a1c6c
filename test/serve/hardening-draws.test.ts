/**
 * `serve` answering from a scenario whose distributions can draw past 2^53 − 1: the draw is the scenario
 * file's fault, so the call is a 422 OpenAI-style error naming file, field and run in the CLI's words —
 * not a 500 — the run ends there, and the server goes on answering other runs. A genuine bug still is a 500.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { SyntheticSession } from '../../src/serve/synthetic.js';
import { Rng } from '../../src/synthetic/random.js';
import { cli, oneEntryScenario, tempDir } from '../cli/run.js';
import { spawnServe } from './spawnServe.js';
import { expectOpenAiError, get, post, type Answer } from './client.js';

const dir = tempDir();
const prices = loadPriceTable();

/** A one-entry healthy scenario in this file's directory. */
const scenarioFile = (name: string, top: Record<string, string>, entry: Record<string, string> = {}): string => oneEntryScenario(dir, name, top, entry);

/** About half its draws are ~0 tokens, the other half Infinity. */
const TAIL = scenarioFile('tail.yaml', {}, { outputTokens: '{ kind: lognormal, median: 1e-300, p95: 9e15 }' });
/** Most runs' systemTokens draw past 2^53 − 1 before the first call. */
const HEAD = scenarioFile('head.yaml', { systemTokens: '{ kind: normal, mean: 9e15, sd: 9e15 }' });

const ask = (url: string, session: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  post(url, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'go' }], ...extra }, { 'x-loopcost-session': session, ...headers });

/** Calls of run `run` until it answers anything but 200; every answer. */
async function driveRun(url: string, run: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < 20; i++) {
    const answer = await ask(url, `run-${run}`, { 'x-loopcost-run': String(run) });
    answers.push(answer);
    if (answer.status !== 200) return answers;
  }
  throw new Error(`run ${run} never ended`);
}

function expectDrawError(answer: Answer, file: string, field: string, run: number): void {
  expect(answer.status, JSON.stringify(answer.json)).toBe(422);
  expectOpenAiError(answer);
  const { error } = answer.json;
  expect(error.message).toContain(`${file} field '${field}': run ${run} (seed 1) drew `);
  expect(error.message).toMatch(/more than 9007199254740991 \(2\^53 − 1\)/);
  expect(error.message).not.toMatch(/internal error|\n\s+at /);
  expect(error).toMatchObject({ type: 'invalid_request_error', code: 'draw_too_large', param: null });
  expect(error.loopcost.issues[0]).toMatchObject({ file, field, code: 'draw_too_large' });
  expect(answer.headers.get('x-should-retry')).toBe('false');
}

/** The message `loopcost replay` prints for the same file (its first failing run). */
async function cliMessage(file: string): Promise<string> {
  const r = await cli('replay', file, '--runs', '20');
  expect(r.code).toBe(2);
  return r.stderr.replace(/^loopcost: /, '').trim();
}

describe('serve: a draw past 2^53 − 1 during a call', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ sources: { scenario: { scenario: loadScenarioFile(TAIL) } }, prices });
  });
  afterAll(() => server.close());

  it('answers 422 naming file, field and run as the CLI does, ends that run, and serves the others', async () => {
    const runs = new Map<number, Answer[]>();
    for (let run = 1; run <= 8; run++) runs.set(run, await driveRun(server.url, run));
    const broken = [...runs].filter(([, answers]) => answers.at(-1)!.status === 422);
    const whole = [...runs].filter(([, answers]) => answers.at(-1)!.status === 409);
    expect(broken.length).toBeGreaterThan(0);
    expect(whole.length).toBeGreaterThan(0);
    expect(broken.length + whole.length).toBe(8);
    for (const [run, answers] of broken) expectDrawError(answers.at(-1)!, TAIL, 'population[0].outputTokens', run);

    // The CLI's first failing run fails the same way here, word for word.
    const cli = await cliMessage(TAIL);
    const run = Number(/run (\d+) \(seed 1\)/.exec(cli)![1]);
    expect(runs.get(run)!.at(-1)!.json.error.message).toBe(cli);

    // The broken run stays ended with the same error (a later draw is not served as if nothing happened).
    const [brokenRun, brokenAnswers] = broken[0]!;
    const again = await ask(server.url, `run-${brokenRun}`);
    expect(again.json).toEqual(brokenAnswers.at(-1)!.json);
    const summary = (await get(server.url, '/loopcost/sessions')).json.sessions.find((s: { id: string }) => s.id === `run-${brokenRun}`);
    expect(summary).toMatchObject({ ended: true, calls: brokenAnswers.length - 1 });

    // Streaming asks get the same JSON error (nothing was streamed yet).
    const [streamRun] = broken[1] ?? broken[0]!;
    const streamed = await driveStreamed(server.url, streamRun);
    expectDrawError(streamed, TAIL, 'population[0].outputTokens', streamRun);
  });

  it('a bug inside a draw is still a 500 (and does not end the run)', async () => {
    const spy = vi.spyOn(Rng.prototype, 'normal').mockImplementationOnce(() => {
      throw new TypeError('boom inside a draw');
    });
    try {
      const answer = await ask(server.url, 'bug-in-draw', { 'x-loopcost-run': '1' });
      expect(answer.status).toBe(500);
      expect(answer.json.error).toMatchObject({ type: 'server_error', code: 'internal_error' });
      expect(answer.json.error.message).toMatch(/internal error — please report it: boom inside a draw/);
    } finally {
      spy.mockRestore();
    }
    expect((await ask(server.url, 'bug-in-draw', { 'x-loopcost-run': '1' })).status).toBe(200);
  });

  it('a bug anywhere else in answering is still a 500, and the server keeps serving', async () => {
    const spy = vi.spyOn(SyntheticSession.prototype, 'answer').mockImplementationOnce(() => {
      throw new TypeError('boom');
    });
    try {
      const answer = await ask(server.url, 'bug');
      expect(answer.status).toBe(500);
      expect(answer.json.error).toMatchObject({ type: 'server_error', code: 'internal_error' });
    } finally {
      spy.mockRestore();
    }
    expect((await ask(server.url, 'after-bug', { 'x-loopcost-run': '1' })).status).toBe(200);
  });
});

/** Run `run` asked with `stream: true` until it answers anything but 200. */
async function driveStreamed(url: string, run: number): Promise<Answer> {
  for (let i = 0; i < 20; i++) {
    const answer = await ask(url, `streamed-${run}`, { 'x-loopcost-run': String(run) }, { stream: true });
    if (answer.status !== 200) return answer;
  }
  throw new Error(`run ${run} never ended`);
}

describe('serve: a draw past 2^53 − 1 before the first call', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ sources: { scenario: { scenario: loadScenarioFile(HEAD) } }, prices });
  });
  afterAll(() => server.close());

  it('answers 422 naming the field and the run; each new session still takes the next run', async () => {
    const answers: Answer[] = [];
    for (let k = 1; k <= 10 && answers.at(-1)?.status !== 200; k++) answers.push(await ask(server.url, `session-${k}`));
    expect(answers.length).toBeGreaterThan(1);
    expect(answers.at(-1)!.status).toBe(200);
    answers.slice(0, -1).forEach((answer, i) => expectDrawError(answer, HEAD, 'systemTokens', i + 1));
    expect(answers[0]!.json.error.message).toBe(await cliMessage(HEAD));
    const { sessions } = (await get(server.url, '/loopcost/sessions')).json;
    expect(sessions).toHaveLength(1);
    expect(sessions[0].source).toBe(`${HEAD}#${answers.length}`);
  });
});

describe('loopcost serve SCENARIO (the CLI) with a draw too large', () => {
  it('answers 422 naming the file and field, keeps serving, and stops cleanly', async () => {
    const { child, url, exited } = await spawnServe([HEAD]);
    try {
      expectDrawError(await ask(url, 'first'), HEAD, 'systemTokens', 1);
      expect((await get(url, '/v1/models')).status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});

describe('serve: a run whose spend passes exact picodollars', () => {
  /** One call's output at the size cap: it costs more than $9,007 (a request without max_tokens is not cut; on a model the table gives no window, the CLI's max_tokens as large is not refused). */
  const DEAR = scenarioFile('dear.yaml', { model: 'gemini-2.5-pro' }, { outputTokens: String(Number.MAX_SAFE_INTEGER) });
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ sources: { scenario: { scenario: loadScenarioFile(DEAR) } }, prices });
  });
  afterAll(() => server.close());

  it('answers 422 naming the run, on that call and every later one, as the CLI refuses it', async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await ask(server.url, 'dear');
      expect(answer.status, JSON.stringify(answer.json)).toBe(422);
      expectOpenAiError(answer);
      expect(answer.json.error).toMatchObject({ code: 'cost_out_of_range', type: 'invalid_request_error' });
      expect(answer.json.error.message).toContain(`${DEAR}#1: one run costs more than $9,007`);
    }
    expect((await cli('replay', DEAR, '--runs', '1', '--max-output-tokens', String(Number.MAX_SAFE_INTEGER))).stderr).toMatch(/one run costs more than \$9,007/);
  });
});
