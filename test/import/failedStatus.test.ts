/**
 * A failed call's status is the error the provider answered with; a 2xx is refused on a failed call
 * (src/trace/rules.ts). Importers that read a status beside an error leave a 2xx out (a stream that failed
 * after its 200: an OTel span with http.response.status_code 200 and error.type; a Claude Code API-error
 * line saying 200), so such a real recording is still read, and its end does not say `HTTP 200`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../src/import/importText.js';
import { tempDir } from '../cli/run.js';

const attr = (key: string, value: Record<string, unknown>) => ({ key, value });

function otelDoc(status: number): string {
  const attributes = [
    attr('gen_ai.operation.name', { stringValue: 'chat' }),
    attr('gen_ai.request.model', { stringValue: 'gpt-4o' }),
    attr('error.type', { stringValue: 'openai.APIConnectionError' }),
    attr('http.response.status_code', { intValue: status }),
  ];
  const span = { traceId: 't1', spanId: 'a', name: 'chat gpt-4o', startTimeUnixNano: '1760000000000000000', endTimeUnixNano: '1760000001000000000', attributes, status: { code: 2, message: 'stream ended early' } };
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
}

describe('a 2xx status beside an error is left out by the importers', () => {
  it('OTel: a failed chat span with http.response.status_code 200 is a failed call without status; 503 is kept', () => {
    const [run] = importText(otelDoc(200), 'otel.json');
    expect(run!.calls[0]!.failed).toEqual({ message: expect.any(String) });
    expect(run!.end).toMatchObject({ outcome: 'error' });
    expect(run!.end.status).not.toBe('HTTP 200');
    const [kept] = importText(otelDoc(503), 'otel.json');
    expect(kept!.calls[0]!.failed!.status).toBe(503);
    expect(kept!.end.status).toBe('HTTP 503');
  });

  it('Claude Code: an API-error line saying 200 is a failed call without status; 529 is kept', () => {
    const base = { sessionId: 's-9', cwd: '/w', version: '2.1.39', userType: 'external', isSidechain: false };
    const session = (apiErrorStatus: number) =>
      [
        { ...base, type: 'user', uuid: 'u1', timestamp: '2026-01-01T10:00:00.000Z', message: { role: 'user', content: 'hi' } },
        { ...base, type: 'assistant', uuid: 'a1', timestamp: '2026-01-01T10:00:04.000Z', message: { model: 'claude-sonnet-4-5-20250929', id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }], usage: { input_tokens: 10, output_tokens: 4 } } },
        { ...base, type: 'user', uuid: 'u2', timestamp: '2026-01-01T10:00:05.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] } },
        { ...base, type: 'assistant', uuid: 'a2', timestamp: '2026-01-01T10:00:06.000Z', isApiErrorMessage: true, apiErrorStatus, error: 'unknown', message: { model: '<synthetic>', id: 'x-1', role: 'assistant', content: [{ type: 'text', text: 'API Error: stream ended early' }], usage: { input_tokens: 0, output_tokens: 0 } } },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n');
    const [run] = importText(session(200), join(tempDir(), 's-9.jsonl'));
    expect(run!.calls.at(-1)!.failed).toEqual({ message: 'API Error: stream ended early' });
    const [kept] = importText(session(529), join(tempDir(), 's-9.jsonl'));
    expect(kept!.calls.at(-1)!.failed!.status).toBe(529);
  });
});
