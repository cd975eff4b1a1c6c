/**
 * project's seed line: the scenario files' seeds made their runs, not the traces `loopcost generate` wrote among
 * the inputs (made when they were generated). Whether there are any is read off the count the report keeps
 * (the recorded part's `generated`), not worked out from the synthetic runs less the files' runs.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { renderProjectTable, type ProjectReport } from '../../src/report/projectReport.js';
import { DEFAULT_VIEW } from '../../src/report/view.js';

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

async function projected(...argv: string[]): Promise<{ text: string; report: ProjectReport }> {
  const text = oneLine((await cli('project', ...argv, '--trials', '20')).stdout);
  const report = JSON.parse((await cli('project', ...argv, '--trials', '20', '--format', 'json')).stdout) as ProjectReport;
  return { text, report };
}

describe("project's seed line beside generated traces", () => {
  it("names the scenario files' runs where generated traces are among the synthetic runs, else the synthetic runs", async () => {
    const generated = join(tempDir(), 'gen.jsonl');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '5', '--out', generated)).code).toBe(0);
    const both = await projected('scenarios/flight-search.yaml', generated);
    expect(both.report.inputs.syntheticRuns).toBe(35);
    expect(both.report.parts.find((part) => part.kind === 'recorded')?.generated).toBe(5);
    expect(both.text).toContain("20 simulated periods drawn with seed 1, which made the scenario files' runs too).");
    expect((await projected('scenarios/flight-search.yaml', generated, '--seed', '9')).text).toContain("drawn with seed 9, which made the scenario files' runs too).");
    expect((await projected('scenarios/flight-search.yaml')).text).toContain('20 simulated periods drawn with seed 1, which made the synthetic runs too).');
  });

  it('reads the count of generated traces the report keeps', async () => {
    const generated = join(tempDir(), 'gen.jsonl');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '5', '--out', generated)).code).toBe(0);
    const { report } = await projected('scenarios/flight-search.yaml', generated);
    const line = (r: ProjectReport) => oneLine(renderProjectTable(r, DEFAULT_VIEW)).match(/simulated periods drawn with seed [^)]*\)/)![0];
    expect(line(report)).toBe("simulated periods drawn with seed 1, which made the scenario files' runs too)");
    // The same report with no generated trace counted: the synthetic runs are the files' own.
    const none = { ...report, parts: report.parts.map(({ generated: _generated, ...part }) => part) };
    expect(line(none)).toBe('simulated periods drawn with seed 1, which made the synthetic runs too)');
  });
});
