/**
 * replay's chart of a folder of one-run files (a `~/.claude/projects` folder of sessions, say): each file
 * was its own input, so 13 sessions gave 13 per-run charts and no population chart. A directory or glob
 * that brought in more than MANY_FILES trace files is now one input: its runs charted together
 * (report/replayChart.ts chartInputOf). A folder of few files (scenarios/ for `npm start`), and files
 * named one by one, are charted file by file as before.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartInputOf, MANY_FILES } from '../../src/report/replayChart.js';
import { cli, tempDir } from '../cli/run.js';

/** A one-run native file whose one call reads `inputTokens`. */
const oneRun = (inputTokens: number) =>
  [
    '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}',
    `{"type":"call","inputTokens":${inputTokens},"outputTokens":5}`,
    '{"type":"end","outcome":"completed"}',
  ].join('\n') + '\n';

/** A folder of `files` one-run files. */
function folder(files: number): string {
  const dir = join(tempDir(), `sessions-${files}`);
  mkdirSync(dir);
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `s${String(i).padStart(2, '0')}.jsonl`), oneRun(100 + i));
  return dir;
}

/** The chart titles: lines naming an input, ` — ` then what it is. */
const titles = (chart: string) => chart.split('\n').filter((line) => / — /.test(line));

describe('replay --format chart of a folder of one-run files', () => {
  it(`more than ${MANY_FILES} files: one population chart of the folder, no per-run chart (each was its own chart)`, async () => {
    const dir = folder(MANY_FILES + 1);
    const { code, stdout } = await cli('replay', dir, '--format', 'chart');
    expect(code).toBe(0);
    expect(titles(stdout)).toEqual([expect.stringMatching(/ — 13 runs \(gpt-4o-mini\), cost per run median /)]);
    expect(titles(stdout)[0]!.startsWith(`${dir} — `)).toBe(true);
    expect(stdout).toMatch(/^13 runs from 1 input \(trace or scenario files; a directory or glob of more than 12 trace files is one\)/);
    expect(stdout).toContain('(13 per-run charts of inputs with more than 3 runs not shown: add --per-run)');
  });

  it(`${MANY_FILES} files, or files named one by one: a chart per file as before`, async () => {
    const dir = folder(MANY_FILES);
    const { stdout } = await cli('replay', dir, '--format', 'chart');
    expect(titles(stdout)).toHaveLength(MANY_FILES);
    expect(stdout).toMatch(/^12 runs from 12 inputs \(trace or scenario files\)/);
    const big = folder(MANY_FILES + 1);
    const named = await cli('replay', join(big, 's00.jsonl'), join(big, 's01.jsonl'), '--format', 'chart');
    expect(titles(named.stdout)).toHaveLength(2);
  });

  it('chartInputOf: a file of a directory or glob of more than MANY_FILES files goes under it; others, and files named alone, under their own name', () => {
    const big = Array.from({ length: MANY_FILES + 1 }, (_, i) => `big/${i}.jsonl`);
    // A folder of MANY_FILES trace files and scenario files beside them: the scenarios count for nothing.
    const mixed = [...Array.from({ length: MANY_FILES }, (_, i) => `mixed/${i}.jsonl`)];
    const broughtIn = new Map<string, string>([...big.map((file) => [file, 'big'] as const), ...mixed.map((file) => [file, 'mixed'] as const), ['mixed/a.yaml', 'mixed'], ['mixed/b.yaml', 'mixed']]);
    const inputOf = chartInputOf([...big, ...mixed, 'given.jsonl'], broughtIn);
    expect(inputOf('big/3.jsonl')).toBe('big');
    expect(inputOf('mixed/3.jsonl')).toBe('mixed/3.jsonl');
    expect(inputOf('mixed/a.yaml')).toBe('mixed/a.yaml');
    expect(inputOf('given.jsonl')).toBe('given.jsonl');
    expect(chartInputOf(big, undefined)('big/3.jsonl')).toBe('big/3.jsonl');
  });
});
