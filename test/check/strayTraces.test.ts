/**
 * A directory of scenarios that also holds recordings no scenario names under `traces:`: check runs them not
 * at all, and said so on stderr only — a CI job reading the JSON report saw `passed: true` and no warning.
 * They are now the report's `traces_left_out` warning too (JSON `warnings`, with every file in `files`; the
 * text report's `warning:` lines), said once on stderr as before; the exit status is the scenarios' as before.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ONE_CALL_RUN, tempDir } from '../cli/run.js';

interface Warning {
  code: string;
  message: string;
  files?: string[];
}

/** `scenarios/` holding s.yaml (its own run, own.jsonl, held to a bound it keeps) and `strays` recordings no scenario names. */
function layout(strays: readonly string[]): string {
  const dir = join(tempDir(), 'scenarios');
  mkdirSync(dir);
  writeFileSync(join(dir, 'own.jsonl'), ONE_CALL_RUN);
  for (const name of strays) writeFileSync(join(dir, name), ONE_CALL_RUN);
  const lines = ['scenario: loopcost.scenario/1', 'name: s', 'model: gpt-4o-mini', 'traces: [own.jsonl]', 'expect:', '  runs: { steps: { max: 10000 } }'];
  writeFileSync(join(dir, 's.yaml'), lines.join('\n') + '\n');
  return dir;
}

const LEFT_OUT_LINE = /trace files? among the inputs left out/g;

describe('check: trace files a directory of scenarios holds unnamed are a report warning', () => {
  it('JSON: a traces_left_out warning naming every stray file; passed and exit 0 as before; said once on stderr', async () => {
    const strays = ['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl'];
    const dir = layout(strays);
    const r = await cli('check', dir, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { passed: boolean; warnings: Warning[] };
    expect(report.passed).toBe(true);
    const warning = report.warnings.find((w) => w.code === 'traces_left_out');
    expect(warning).toBeDefined();
    expect(warning!.files).toEqual(strays.map((name) => join(dir, name)));
    expect(warning!.message).toMatch(/^4 trace files among the inputs left out \(.*a\.jsonl.*\): check runs only the traces a scenario file names under 'traces:'/);
    // own.jsonl is named by s.yaml: not left out.
    expect(warning!.files).not.toContain(join(dir, 'own.jsonl'));
    expect(r.stderr.match(LEFT_OUT_LINE)).toHaveLength(1);
  });

  it("text: among the report's warning lines; with --out, said once on stderr and in the file", async () => {
    const dir = layout(['stray.jsonl']);
    const r = await cli('check', dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`warning: 1 trace file among the inputs left out (${join(dir, 'stray.jsonl')})`);
    const out = join(tempDir(), 'check.json');
    const written = await cli('check', dir, '--out', out);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr.match(LEFT_OUT_LINE)).toHaveLength(1);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { warnings: Warning[] };
    expect(report.warnings.filter((w) => w.code === 'traces_left_out').map((w) => w.files)).toEqual([[join(dir, 'stray.jsonl')]]);
  });

  it('none when every trace file there is named by a scenario, and none for a file that is no trace (said on stderr only)', async () => {
    const dir = layout([]);
    writeFileSync(join(dir, 'notes.jsonl'), 'not a trace\n');
    const r = await cli('check', dir, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { warnings: Warning[] }).warnings.map((w) => w.code)).not.toContain('traces_left_out');
    expect(r.stderr).toMatch(/1 file among the inputs left out \(.*notes\.jsonl\): is neither a trace nor a scenario file/);
  });
});
