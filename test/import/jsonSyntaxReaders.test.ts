/**
 * The import readers that quoted V8's raw message for a JSON syntax error (`line is not valid JSON
 * (Unexpected token 'N', ..."UnixNano":NaN,"endTi"... is not valid JSON)`, `(... at position 3550)`) say it by
 * the one rule (src/io/jsonSyntax.ts, framed by src/import/common/jsonSyntaxError.ts): the file's line, the
 * column, the field open there, why, and what to do; a text held inside the file (a cassette body, an SSE
 * event, an event-stream payload) named at its own column, "of the body". Through `loopcost import`: exit 2,
 * no stack trace, never V8's position or quoted excerpt.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../src/import/importText.js';
import { BIN, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';
import { bedrockCassette } from './eventStreamBytes.js';
import { importRefused } from './importRefused.js';

const dir = tempDir();

/** `loopcost import` of `text` written as `name`: its stderr (the directory left out), after checking it exits 2 with no trace of V8. */
async function refused(name: string, text: string | Buffer): Promise<string> {
  const stderr = await importRefused(dir, name, text);
  expect(stderr).not.toMatch(/position \d|\.\.\."|" is not valid JSON|\n\s+at /);
  return stderr;
}

const OTLP_PRETTY = readFileSync('test/fixtures/otel/two-traces.json', 'utf8');
const OTLP = JSON.stringify(JSON.parse(OTLP_PRETTY));
const SPANS = 'resourceSpans[0].scopeSpans[0].spans[0]';

describe('OpenTelemetry (OTLP JSON) export', () => {
  it('a line of a one-document-per-line export cut short', async () => {
    expect(await refused('cut.jsonl', `${OTLP}\n${OTLP.slice(0, 200)}\n`)).toBe(
      `loopcost: cut.jsonl:line 2 field '${SPANS}.traceId': line is not valid JSON at column 201: Unterminated string (the line ends too early: it looks cut short) (one OTLP JSON document per line; was the file truncated? copy it again, or wait until the collector has finished writing it)\n`,
    );
  });

  it('a bare NaN on a line', async () => {
    const nan = OTLP.replace(/"startTimeUnixNano":"\d+"/, '"startTimeUnixNano":NaN');
    expect(await refused('nan.jsonl', `${OTLP}\n${nan}\n`)).toBe(
      `loopcost: nan.jsonl:line 2 field '${SPANS}.startTimeUnixNano': line is not valid JSON at column ${nan.indexOf('NaN') + 1}: NaN is not a JSON number (JSON has no NaN or Infinity) (write a number there, or export the spans again: Python's json.dump writes NaN or Infinity for a float JSON cannot hold)\n`,
    );
  });

  it('a line that is not JSON after a whole export: the second value named at its line, without V8\'s position', async () => {
    expect(await refused('garbage.jsonl', `${OTLP}\nnot json\n`)).toBe(
      "loopcost: garbage.jsonl:line 2: is not valid JSON at column 1: Unexpected non-whitespace character after JSON (an OTLP JSON export must be one JSON document (or one per line): fix the syntax at the line shown, or export the spans again)\n",
    );
  });

  it('a whole pretty-printed export cut short, read as OTLP (the library)', () => {
    const err = userErrorOf(() => importText(OTLP_PRETTY.slice(0, 700), 'cut.json', 'otlp'));
    expect(err.issues).toEqual([
      {
        file: 'cut.json',
        line: 28,
        field: SPANS,
        code: 'invalid_json',
        message: 'is not valid JSON at column 13: Expected double-quoted property name (the file ends too early: it looks cut short)',
        hint: 'an OTLP JSON export must be one JSON document (or one per line); was the file truncated? copy it again, or wait until the collector has finished writing it',
      },
    ]);
  });
});

const EXCHANGE = readFileSync('test/fixtures/http/anthropic-stream.jsonl', 'utf8').split('\n')[0]!;

describe('HTTP exchanges (JSONL)', () => {
  it('a line cut short', async () => {
    expect(await refused('cut.jsonl', `${EXCHANGE}\n${EXCHANGE.slice(0, 300)}\n`)).toBe(
      "loopcost: cut.jsonl:line 2 field 'response': line is not valid JSON at column 301: Unexpected end of JSON input (the line ends too early: it looks cut short) (each line must be one complete JSON object; was the file truncated?)\n",
    );
  });

  it('the built binary says the same, exit 2 and no stack trace (loopcost replay)', () => {
    const path = join(dir, 'cut-bin.jsonl');
    writeFileSync(path, `${EXCHANGE}\n${EXCHANGE.slice(0, 300)}\n`);
    const r = spawnSync(process.execPath, [BIN, 'replay', path], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.replaceAll(`${dir}/`, '')).toBe(
      "loopcost: cut-bin.jsonl:line 2 field 'response': line is not valid JSON at column 301: Unexpected end of JSON input (the line ends too early: it looks cut short) (each line must be one complete JSON object; was the file truncated?)\n",
    );
  });

  it('a streamed body whose event holds a bare NaN: the body\'s line and column, the field in the event', async () => {
    const nan = EXCHANGE.replace('data: {\\"type\\":\\"message_start\\"', 'data: {\\"type\\":NaN');
    expect(nan).not.toBe(EXCHANGE);
    expect(await refused('sse.jsonl', `${nan}\n`)).toBe(
      "loopcost: sse.jsonl:line 1 field 'response(reassembled stream)': stream event at line 2 of the body is not valid JSON at column 15 (type): NaN is not a JSON number (JSON has no NaN or Infinity) (write a number there, or record the stream again: Python's json.dump writes NaN or Infinity for a float JSON cannot hold)\n",
    );
  });
});

/** test/fixtures/cassettes/missing-usage.yaml: the response body string is on line 11. */
const CASSETTE = readFileSync('test/fixtures/cassettes/missing-usage.yaml', 'utf8');
const BODY = "'interactions[0].response.body.string'";

describe('VCR cassette bodies', () => {
  it('a body string cut short: on the body\'s line, at the body\'s own column', async () => {
    const cut = CASSETTE.replace('"Sunny."}, "finish_reason": "stop"}]}', '"Sunny."}, "fin');
    expect(await refused('cut.yaml', cut)).toBe(
      `loopcost: cut.yaml:line 11 field ${BODY}: body is not valid JSON at column 165 of the body (choices[0]): Unterminated string (the body ends too early: it looks cut short) (the body looks cut short: record the cassette again, or copy it whole)\n`,
    );
  });

  it('a body that is not JSON (an HTML page with status 200)', async () => {
    const html = CASSETTE.replace(/string: '.*'/, "string: '<html>502 Bad Gateway</html>'");
    expect(await refused('html.yaml', html)).toBe(
      `loopcost: html.yaml:line 11 field ${BODY}: body is not valid JSON at column 1 of the body: Unexpected token '<' (the body must be one JSON object, or a streamed (text/event-stream) body)\n`,
    );
  });

  it('a bare NaN in a body', async () => {
    expect(await refused('nan.yaml', CASSETTE.replace('"index": 0', '"index": NaN'))).toBe(
      `loopcost: nan.yaml:line 11 field ${BODY}: body is not valid JSON at column 103 of the body (choices[0].index): NaN is not a JSON number (JSON has no NaN or Infinity) (write a number there, or record the cassette again: Python's json.dump writes NaN or Infinity for a float JSON cannot hold)\n`,
    );
  });
});


describe('AWS event-stream bodies', () => {
  const STREAM = "'interactions[0].response.body(reassembled stream)'";

  it('a payload cut short', async () => {
    expect(await refused('payload.yaml', bedrockCassette(['{"bytes": "eyJ0eXBlIjoi']))).toBe(
      `loopcost: payload.yaml:line 2 field ${STREAM}: event-stream message 0 at byte 0 is malformed: payload is not valid JSON at column 24 of the payload (bytes): Unterminated string (the payload ends too early: it looks cut short) (the body must be the AWS event-stream bytes as received (record them as binary, uncut))\n`,
    );
  });

  it('a chunk whose base64 event is cut short', async () => {
    const bytes = Buffer.from('{"type": "message_start", "message": ').toString('base64');
    expect(await refused('chunk.yaml', bedrockCassette([JSON.stringify({ bytes })]))).toBe(
      `loopcost: chunk.yaml:line 2 field ${STREAM}: event-stream chunk 0 does not hold a base64 JSON event: its decoded text is not valid JSON at column 38 of the text (message): Unexpected end of JSON input (the text ends too early: it looks cut short)\n`,
    );
  });
});

describe('agent logs read line by line', () => {
  it('a Claude Code transcript with a line cut short before others: its column in the file (indent counted)', async () => {
    const lines = readFileSync('test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', 'utf8').split('\n');
    lines[5] = `  ${lines[5]!.slice(0, 80)}`;
    expect(await refused('cc.jsonl', lines.join('\n'))).toBe(
      'loopcost: cc.jsonl:line 6: is not valid JSON at column 83: Unterminated string (the line ends too early: it looks cut short), and more lines follow it: the transcript is damaged (expected a Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl) as Claude Code wrote it: copy it again or fix the line named)\n',
    );
  });

  it("a SWE-agent trajectory whose replay_config string is not JSON: the string's column and field", async () => {
    const traj = JSON.parse(readFileSync('test/fixtures/swe-agent/v1.0_2024-12__6e44b9__sweagenttestrepo-1c2844.traj', 'utf8')) as Record<string, unknown>;
    const config = JSON.stringify(traj.replay_config).replace('"tiny"', 'tiny');
    // V8 reads `t` as the start of `true`: the `i` after it is the fault.
    expect(await refused('swe.traj', JSON.stringify({ ...traj, replay_config: config }, null, 2))).toBe(
      `loopcost: swe.traj field 'replay_config': is a string that is not valid JSON at column ${config.indexOf('tiny') + 2} of the string (env.deployment.image): Unexpected token 'i' (expected a SWE-agent .traj file (top-level trajectory, history and info) as SWE-agent writes it: export the run again or fix the field named)\n`,
    );
  });
});

describe('OTLP lines that are JSON but not plain', () => {
  it("a key given twice on a line is said as that (it was `line is not valid JSON (key … given twice …)`)", async () => {
    const twice = OTLP.replace('"resourceSpans":', '"resourceSpans":[],"resourceSpans":');
    expect(await refused('twice.jsonl', `${OTLP}\n${twice}\n`)).toBe(
      `loopcost: twice.jsonl:line 2 field 'resourceSpans': key "resourceSpans" is given twice in the same object (an OTLP JSON export as the exporter writes it: plain JSON, each key once)\n`,
    );
  });
});
