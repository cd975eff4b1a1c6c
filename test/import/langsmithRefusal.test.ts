/**
 * A LangSmith runs export (run records: id, name, run_type, trace_id, inputs, outputs, extra,
 * prompt_tokens/completion_tokens) is refused by name with the way to a recording loopcost reads (a
 * cassette, provider exchanges, OTLP GenAI spans through LangSmith's OpenTelemetry integration), as JSONL,
 * one pretty-printed run or the runs API's `{runs: […]}`; exit 2, nothing written. Before, it was "is not a
 * trace format loopcost reads (its first record's fields: id, name, run_type, …)" with the list of formats.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const LLM_RUN = {
  id: 'a1',
  name: 'ChatOpenAI',
  run_type: 'llm',
  trace_id: 't1',
  parent_run_id: 'p1',
  start_time: '2025-06-01T10:00:00',
  end_time: '2025-06-01T10:00:01',
  inputs: { messages: [[{ lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'SystemMessage'], kwargs: { content: 'You are a support bot' } }]] },
  outputs: { llm_output: { token_usage: { prompt_tokens: 1200, completion_tokens: 40, total_tokens: 1240 }, model_name: 'gpt-4o-mini' } },
  extra: { invocation_params: { model: 'gpt-4o-mini' } },
  prompt_tokens: 1200,
  completion_tokens: 40,
  total_tokens: 1240,
};
const TOOL_RUN = { id: 'a2', name: 'kb_search', run_type: 'tool', trace_id: 't1', parent_run_id: 'p1', inputs: { input: 'refund' }, outputs: { output: 'Refunds take 5 days' } };

describe('a LangSmith runs export', () => {
  const dir = tempDir();
  const shapes: [string, string][] = [
    ['runs.jsonl', `${JSON.stringify(LLM_RUN)}\n${JSON.stringify(TOOL_RUN)}\n`],
    ['tool-first.jsonl', `${JSON.stringify(TOOL_RUN)}\n${JSON.stringify(LLM_RUN)}\n`],
    ['run.json', JSON.stringify(LLM_RUN, null, 2)],
    ['queried.json', JSON.stringify({ runs: [LLM_RUN, TOOL_RUN], cursors: { next: null } })],
  ];
  for (const [name, text] of shapes) {
    it(`${name}: named as LangSmith's export, with what to record instead; exit 2, nothing written`, async () => {
      const file = join(dir, name);
      writeFileSync(file, text);
      const out = join(dir, `${name}.out.jsonl`);
      const r = await cli('import', file, '--out', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^loopcost: ${file.replace(/[.]/g, '\\.')}: is a LangSmith runs export \\(run records: run_type, trace_id, inputs, outputs\\), which loopcost does not read: `));
      expect(r.stderr).toContain('(record the model calls under LangChain: run the agent under vcrpy or pytest-recording');
      expect(r.stderr).toContain('provider exchanges JSONL');
      expect(r.stderr).toContain("LangSmith's OpenTelemetry integration (langsmith[otel], LANGSMITH_OTEL_ENABLED=true)");
      expect(r.stderr).toContain('gen_ai.usage.input_tokens');
      expect(r.stderr).not.toContain("its first record's fields");
      expect(existsSync(out)).toBe(false);
    });
  }

  it('replay says the same of the reviewer-shaped file', async () => {
    const file = join(dir, 'langsmith-runs.jsonl');
    writeFileSync(file, `${JSON.stringify(LLM_RUN)}\n`);
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a LangSmith runs export');
  });

  it('a record with run_type but no trace, inputs or outputs is still an unknown format, listing its fields', async () => {
    const file = join(dir, 'other.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'x', run_type: 'llm', status: 'ok' })}\n`);
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is not a trace format loopcost reads (its first record's fields: id, run_type, status)");
  });
});
