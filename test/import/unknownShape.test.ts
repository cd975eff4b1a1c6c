/**
 * A valid JSONL file of a shape no importer reads is refused as that — never "not valid JSON … must be
 * one JSON document" — and a well-known foreign shape (chat fine-tuning `messages` records, `{role,
 * content}` lines) is named, with what loopcost reads instead. A file with a scenario's keys but no
 * `scenario:` line is told the line is missing.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectFormat, TRACE_FORMATS } from '../../src/import/formats.js';
import { refuseTraceAsScenario } from '../../src/scenario/inputs.js';
import { userErrorOf } from '../helpers.js';

const FINE_TUNING = '{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]}\n{"messages":[{"role":"user","content":"a"}]}\n';

function issueOf(text: string, path = 'in.jsonl') {
  const issues = userErrorOf(() => detectFormat(text, path)).issues;
  expect(issues).toHaveLength(1);
  return issues[0]!;
}

describe('JSONL of records no format has', () => {
  it('two fine-tuning lines: an unknown format that looks like chat fine-tuning data, what to read instead; no JSON syntax complaint', () => {
    const issue = issueOf(FINE_TUNING, 'ft.jsonl');
    expect(issue).toMatchObject({ file: 'ft.jsonl', code: 'unknown_format' });
    expect(issue.line).toBeUndefined();
    expect(issue.message).toBe('is not a trace format loopcost reads: it looks like chat fine-tuning or eval data, a `messages` list a record: conversations without the token usage of model calls');
    expect(issue.hint).toMatch(/^loopcost replays recorded model calls with their usage: provider exchanges JSONL .*native JSONL \(docs\/trace-format\.md\); for a loop not yet recorded, a scenario file/);
    expect(`${issue.message} ${issue.hint}`).not.toMatch(/not valid JSON|one JSON document/);
  });

  it('one line or two: the same message', () => {
    const one = FINE_TUNING.split('\n')[0]!;
    expect(issueOf(one).message).toBe(issueOf(FINE_TUNING).message);
    expect(issueOf(`${one}\n`).message).toBe(issueOf(FINE_TUNING).message);
  });

  it('{role, content} lines are chat messages; prompt/completion pairs are fine-tuning data', () => {
    expect(issueOf('{"role":"user","content":"hi"}\n{"role":"assistant","content":"yo"}\n').message).toMatch(/: it looks like chat messages, `\{role, content\}` a record/);
    expect(issueOf('{"prompt":"a","completion":"b"}\n{"prompt":"c","completion":"d"}\n').message).toMatch(/: it looks like prompt\/completion pairs/);
  });

  it('records of no known shape: unknown format, naming the first record\'s fields, with the formats loopcost reads', () => {
    const issue = issueOf('{"foo":1,"bar":[1,2]}\n{"foo":2,"bar":[]}\n');
    expect(issue.message).toBe("is not a trace format loopcost reads (its first record's fields: foo, bar)");
    expect(issue.hint).toBe('expected a native JSONL trace, a mini-swe-agent trajectory, a SWE-agent trajectory, provider exchanges JSONL, a VCR cassette, OTLP JSON spans, a Claude Code transcript or a Codex rollout');
  });

  it('the formats it names are the one list of formats (TRACE_FORMATS), which refuseTraceAsScenario names a trace by too', () => {
    const hint = issueOf('{"foo":1}\n').hint!;
    for (const words of Object.values(TRACE_FORMATS)) expect(hint).toContain(words);
    const dir = mkdtempSync(join(tmpdir(), 'loopcost-formats-'));
    const cassette = join(dir, 'run.cassette');
    writeFileSync(cassette, 'interactions:\n- request: {}\n');
    expect(userErrorOf(() => refuseTraceAsScenario(cassette, 'generate')).issues[0]!.message).toMatch(new RegExp(`^is ${TRACE_FORMATS.cassette}, not a scenario file`));
  });

  it('one JSON document of no known shape, written over several lines, is refused the same way', () => {
    expect(issueOf('{\n  "messages": [{"role": "user", "content": "hi"}]\n}\n', 'chat.json').message).toMatch(/: it looks like chat fine-tuning or eval data/);
    expect(issueOf('{\n  "foo": 1\n}\n', 'x.json').message).toBe("is not a trace format loopcost reads (its first record's fields: foo)");
  });

  it('a broken JSON document is still a syntax error at its line', () => {
    const issue = issueOf('{\n  "trajectory": [\n    {"a": 1,}\n  ]\n}\n', 'broken.traj');
    expect(issue.code).toBe('invalid_json');
    expect(issue.line).toBe(3);
  });

  it('a mini-swe-agent trajectory (messages beside info) is still read as one', () => {
    expect(detectFormat('{"messages": [], "info": {"mini_version": "1.0"}}\n', 't.traj.json')).toBe('mini-swe-agent');
  });
});

describe('a scenario without its scenario: line, given as a trace', () => {
  it('YAML with population and model at its top level: the line is missing', () => {
    const issue = issueOf('# a loop\nmodel: gpt-4o-mini\nsystemTokens: 10\npopulation:\n  - behaviour: healthy\n', 's.yaml');
    expect(issue).toMatchObject({ file: 's.yaml', code: 'no_scenario_line', message: 'has no `scenario: loopcost.scenario/1` line' });
    expect(issue.hint).toMatch(/add `scenario: loopcost\.scenario\/1` as its first line/);
  });

  it('JSON too; a YAML file with one scenario-like key, or only keys a trace may have, is not taken for one', () => {
    expect(issueOf('{\n  "model": "gpt-4o-mini",\n  "population": []\n}\n', 's.json').code).toBe('no_scenario_line');
    expect(issueOf('model: gpt-4o-mini\nname: x\n', 'x.yaml').code).toBe('unknown_format');
    expect(issueOf('population: 3\n', 'x.yaml').code).toBe('unknown_format');
  });
});
