/**
 * An OpenAI Agents SDK trace export (review 1, finding 5) is refused by name with the way to a recording
 * loopcost reads (a cassette, provider exchanges, OTLP GenAI spans), as one document, one record a line or
 * its exporter's `{data: […]}`; exit 2, nothing written. Before, it was "not a trace format loopcost reads"
 * with the list of formats and no next step.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const SPAN = { object: 'trace.span', id: 'span_2', trace_id: 'trace_abc', parent_id: 'span_1', started_at: '2025-05-01T10:00:00.100Z', ended_at: '2025-05-01T10:00:01.000Z', span_data: { type: 'response', response_id: 'resp_1' }, error: null };
const TRACE = { object: 'trace', id: 'trace_abc', workflow_name: 'Agent workflow', group_id: null, metadata: null };

describe('an OpenAI Agents SDK trace export', () => {
  const dir = tempDir();
  const shapes: [string, string][] = [
    ['trace.json', JSON.stringify({ ...TRACE, spans: [SPAN] }, null, 1)],
    ['trace.jsonl', `${JSON.stringify(TRACE)}\n${JSON.stringify(SPAN)}\n`],
    ['spans.jsonl', `${JSON.stringify(SPAN)}\n`],
    ['posted.json', JSON.stringify({ data: [TRACE, SPAN] })],
  ];
  for (const [name, text] of shapes) {
    it(`${name}: named as the SDK's export, with what to record instead; exit 2, nothing written`, async () => {
      const file = join(dir, name);
      writeFileSync(file, text);
      const out = join(dir, `${name}.out.jsonl`);
      const r = await cli('import', file, '--out', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^loopcost: ${file.replace(/[.]/g, '\\.')}: is an OpenAI Agents SDK trace export \\(object: trace, with its spans\\), which loopcost does not read: `));
      expect(r.stderr).toContain('(record the model calls themselves, which the SDK makes through the OpenAI client: run the agent under vcrpy or pytest-recording');
      expect(r.stderr).toContain('provider exchanges JSONL');
      expect(r.stderr).not.toContain('expected a native JSONL trace');
      expect(existsSync(out)).toBe(false);
    });
  }

  it('another record with an `object` field is still an unknown format, listing the formats', async () => {
    const file = join(dir, 'other.json');
    writeFileSync(file, JSON.stringify({ object: 'list', data: [{ object: 'model', id: 'gpt-4o' }] }));
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a trace format loopcost reads');
  });
});
