import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const FLIGHT = 'scenarios/flight-search.yaml';
const KEEPS_ASKING = 'scenarios/keeps-asking.yaml';

async function replayText(...argv: string[]): Promise<string> {
  const r = await cli('replay', ...argv);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.replace(/\n\s{20,}/g, ' ');
}

/** A summary field's value (`runs`, `total cost`...) as `replay` of one input prints it. */
function field(text: string, name: string): string {
  const line = text.split('\n').find((l) => l.startsWith(`${name}  `));
  if (line === undefined) throw new Error(`no ${name} in:\n${text}`);
  return line.slice(name.length).trim();
}

/** The by-input table's rows: each row's cells, split where columns are two spaces or more apart. */
function byInputRows(text: string): string[][] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('by input'));
  if (at < 0) throw new Error(`no by-input table in:\n${text}`);
  const rows: string[][] = [];
  for (const line of lines.slice(at + 3)) {
    if (line.trim() === '') break;
    rows.push(line.trim().split(/\s{2,}/));
  }
  return rows;
}

describe('replay text summary: by input', () => {
  it('gives each of two scenario files a row with the figures replay of that file alone gives', async () => {
    const both = await replayText(FLIGHT, KEEPS_ASKING);
    const rows = byInputRows(both);
    expect(rows.map((row) => row[0])).toEqual(['flight-search', 'keeps-asking']);
    expect(both).toContain('by input (scenarios/….yaml):');
    for (const [i, file] of [FLIGHT, KEEPS_ASKING].entries()) {
      const alone = await replayText(file);
      expect(alone).not.toContain('by input');
      const [runs, completed] = field(alone, 'runs').split(', completed ');
      const tasksDone = field(alone, 'tasks done').replace(/;.*\)$/, ')');
      expect(rows[i]!.slice(1, 6)).toEqual([runs, completed, tasksDone, field(alone, 'cost per run'), field(alone, 'total cost')]);
      const mostStops = field(alone, 'stop reasons').split(', ').map((part) => part.split(' ') as [string, string]);
      mostStops.sort((a, b) => Number(b[1]) - Number(a[1]));
      expect(rows[i]![6]).toBe(mostStops.slice(0, 2).map((part) => part.join(' ')).join(', '));
    }
    // The table comes after the summary block and before the per-run rows.
    expect(both.indexOf('by input')).toBeGreaterThan(both.indexOf('wasted (runs not completed)'));
    expect(both.indexOf('by input')).toBeLessThan(both.indexOf('(50 per-run rows not shown'));
  });

  it('adds no table for one input, nor anything to the JSON', async () => {
    const one = await replayText(FLIGHT, '--per-run');
    expect(one).not.toContain('by input');
    const json = await cli('replay', FLIGHT, KEEPS_ASKING, '--format', 'json');
    expect(json.stdout).not.toContain('judged');
    expect(Object.keys(JSON.parse(json.stdout).summary)).not.toContain('byInput');
  });
});
