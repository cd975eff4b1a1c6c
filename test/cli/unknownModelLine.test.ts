/**
 * A model no price table knows is named at its line, as every other input problem is: a native run's own
 * header line (line 1, or a later run's header in a file of several, or after blank lines), a scenario's
 * `model:` line, an imported JSONL log's line the model was read from; a whole JSON document (a
 * mini-swe-agent trajectory) names the field only. Every command that prices a run as its own model says
 * it so, from a file read or from the runs and compiled caches (--cache-dir).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const PAIR = 'scenarios/recorded-pair.jsonl';
let dir = '';
/** The two runs of recorded-pair.jsonl, the second (header on line 5) on an unknown model. */
let second = '';
/** One run on an unknown model, its header after two blank lines (line 3). */
let late = '';
/** keeps-asking.yaml on an unknown model, its `model:` on line 7. */
let scenario = '';

/** `file` with `model` given to the `nth` header line (1-based). */
function withModel(text: string, nth: number, model: string): string {
  let seen = 0;
  return text
    .split('\n')
    .map((line) => (line.includes('"type":"header"') && ++seen === nth ? line.replace(/"model":"[^"]*"/, `"model":"${model}"`) : line))
    .join('\n');
}

beforeAll(() => {
  dir = tempDir();
  const pair = readFileSync(PAIR, 'utf8');
  second = join(dir, 'second.jsonl');
  writeFileSync(second, withModel(pair, 2, 'gpt-9o'));
  expect(readFileSync(second, 'utf8').split('\n')[4]).toContain('"model":"gpt-9o"');
  late = join(dir, 'late.jsonl');
  writeFileSync(late, '\n\n' + withModel(pair.split('\n').slice(0, 4).join('\n') + '\n', 1, 'gpt-9o'));
  scenario = join(dir, 'unknown.yaml');
  const text = readFileSync('scenarios/keeps-asking.yaml', 'utf8').replace('model: gpt-4o-mini', 'model: gpt-9o');
  expect(text.split('\n')[6]).toBe('model: gpt-9o');
  writeFileSync(scenario, text);
});

const named = (file: string, line: number, field: string) => `${file}:line ${line} field '${field}': unknown model 'gpt-9o'`;

describe('a native run of an unknown model: its own header line', () => {
  it('replay: line 1 of a file of one run, a later run’s own header line, a header after blank lines', async () => {
    const first = join(dir, 'first.jsonl');
    writeFileSync(first, withModel(readFileSync(PAIR, 'utf8'), 1, 'gpt-9o'));
    const cases: Array<[string, string]> = [
      [first, named(`${first}#1`, 1, 'header.model')],
      [second, named(`${second}#2`, 5, 'header.model')],
      [late, named(late, 3, 'header.model')],
    ];
    for (const [file, message] of cases) {
      const r = await cli('replay', file);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('every command that prices a run as its own model names the line', async () => {
    const commands: string[][] = [
      ['whatif', second, '--try', 'max-steps=5'],
      ['compare', second],
      ['contexts', second],
      ['sweep', second, '--workers', '1'],
      ['sweep', second, '--workers', '2'],
      ['project', second],
      ['calibrate', second],
      ['fit', second],
      ['serve', second, '--port', '0'],
    ];
    for (const argv of commands) {
      const r = await cli(...argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(named(`${second}#2`, 5, 'header.model'));
    }
  });

  it('runs served from --cache-dir (compiled, and the runs cache) keep their header line', async () => {
    const cache = join(dir, 'cache');
    // Under --model the run's own model is never asked for: its file is read whole and kept.
    for (const extra of [[], ['--per-step', '--format', 'json']]) {
      const kept = await cli('replay', second, '--cache-dir', cache, '--model', 'gpt-4o', ...extra);
      expect(kept.code, kept.stderr).toBe(0);
      const served = await cli('replay', second, '--cache-dir', cache, ...extra);
      expect(served.code).toBe(2);
      expect(served.stderr).toContain(named(`${second}#2`, 5, 'header.model'));
    }
    const swept = await cli('sweep', second, '--cache-dir', cache);
    expect(swept.stderr).toContain(named(`${second}#2`, 5, 'header.model'));
  });

  it('check: a trace the scenario names', async () => {
    const check = join(dir, 'check.yaml');
    writeFileSync(check, ['scenario: loopcost.scenario/1', 'name: lines', `traces: [${second}]`, 'expect:', '  runs: { steps: { max: 100 } }', ''].join('\n'));
    const r = await cli('check', check);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(named(`${second}#2`, 5, 'header.model'));
  });
});

describe('a scenario of an unknown model: its `model:` line', () => {
  it('every command that runs a scenario names the line', async () => {
    const out = join(dir, 'generated.jsonl');
    const commands: string[][] = [
      ['replay', scenario],
      ['whatif', scenario, '--try', 'max-steps=5'],
      ['sweep', scenario],
      ['project', scenario],
      ['check', scenario],
      ['generate', scenario, '--out', out],
      ['serve', scenario, '--port', '0'],
    ];
    for (const argv of commands) {
      const r = await cli(...argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(named(scenario, 7, 'model'));
    }
  });
});

describe('an imported log of an unknown model: the line it was read from, where the format has lines', () => {
  /** `fixture` copied to the test's directory (as `name`) with every model named `gpt-9o`. */
  function renamed(fixture: string, name: string, pattern: RegExp, replacement: string): string {
    const file = join(dir, name);
    const text = readFileSync(fixture, 'utf8').replace(pattern, replacement);
    expect(text).toContain('gpt-9o');
    writeFileSync(file, text);
    return file;
  }

  it('JSONL logs: provider exchanges, a Codex rollout, a Claude Code transcript, OTLP one document a line', async () => {
    const exchanges = renamed('test/fixtures/http/anthropic-cache.jsonl', 'exchanges.jsonl', /"model": ?"[^"]*"/g, '"model":"gpt-9o"');
    const rollout = renamed('test/fixtures/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl', 'rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl', /"model":"[^"]*"/g, '"model":"gpt-9o"');
    const transcript = renamed('test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', /"model":"[^"]*"/g, '"model":"gpt-9o"');
    const otlp = join(dir, 'spans.jsonl');
    const doc = readFileSync('test/fixtures/otel/three-step-tool-error.json', 'utf8').replace(/("gen_ai\.(?:request|response)\.model",\s*"value":\s*\{\s*"stringValue":\s*)"[^"]*"/g, '$1"gpt-9o"');
    expect(doc).toContain('gpt-9o');
    writeFileSync(otlp, `${JSON.stringify(JSON.parse(doc))}\n${JSON.stringify(JSON.parse(doc))}\n`);
    const lineOf = (file: string, text: string) => readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(text)) + 1;
    const cases: Array<[string, string]> = [
      [exchanges, named(exchanges, 1, 'request body "model"')],
      [rollout, named(`${rollout}#main.1`, lineOf(rollout, '"type":"turn_context"'), 'payload.model (turn_context)')],
      [transcript, named(`${transcript}#main.1`, lineOf(transcript, '"model":"gpt-9o"'), 'message.model')],
      [otlp, named(otlp, 1, 'gen_ai.request.model')],
    ];
    for (const [file, message] of cases) {
      const r = await cli('replay', file);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('a whole JSON document (a mini-swe-agent trajectory): the field only', async () => {
    const trajectory = JSON.parse(readFileSync('test/fixtures/mini-swe-agent/deepseek_reasoner_dev__pvlib__pvlib-python-1154.traj.json', 'utf8'));
    trajectory.info.config.model.model_name = 'gpt-9o';
    const file = join(dir, 'mini.traj.json');
    writeFileSync(file, JSON.stringify(trajectory, null, 1));
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file} field 'info.config.model.model_name': unknown model 'gpt-9o'`);
  });
});
