/**
 * sweep's recommendation says one thing a line: the pick, its false stops, the configuration with fewer,
 * the same runs with no brakes, its halved step cap, how far to trust it, the command that reproduces it —
 * each wrapped under the arrow — where it was one ~14-line paragraph to read through for the one figure
 * wanted. JSON `text` carries the same lines (newline-separated); the words are unchanged.
 */
import { describe, expect, it } from 'vitest';
import { cli, cliJson } from '../cli/run.js';

const SWEEP = ['sweep', 'scenarios/production-mix.yaml', '--runs', '60', '--grid', 'max-steps=5,10,20', '--grid', 'max-repeat=2,3', '--target-completion', '0.5', '--workers', '1'];

describe('sweep: the recommendation a line per thing said', { timeout: 120_000 }, () => {
  it('starts each thing said on its own line under the arrow, as JSON text separates them', async () => {
    const report = (await cliJson(...SWEEP)) as { recommendation: { text: string; settings: string } };
    const said = report.recommendation.text.split('\n');
    expect(said[0]).toMatch(/^For at least 50\.0% .* the cheapest configuration is /);
    const starts = ['Halving its step cap to ', 'How far to trust it: on 60 runs', 'To reproduce it: loopcost replay '];
    for (const start of starts) expect(said.filter((line) => line.startsWith(start))).toHaveLength(1);
    expect(said.every((line) => line === line.trim() && line !== '')).toBe(true);
    const { stdout } = await cli(...SWEEP);
    const lines = stdout.split('\n');
    const arrow = lines.findIndex((line) => line.startsWith('→ For at least 50.0%'));
    expect(arrow).toBeGreaterThan(0);
    // Each thing said begins a line of its own (indented under the arrow), in JSON's order.
    const opening = (line: string) => `  ${line.split(' ').slice(0, 4).join(' ')}`;
    const begins = said.slice(1).map((line) => lines.findIndex((l, i) => i > arrow && l.startsWith(opening(line))));
    expect(begins.every((at) => at > arrow)).toBe(true);
    expect([...begins].sort((a, b) => a - b)).toEqual(begins);
    // The same words as the JSON text, rewrapped.
    const block = lines.slice(arrow, Math.max(...begins) + 3).join(' ').replace(/\s+/g, ' ');
    for (const line of said) expect(block).toContain(line.replace(/\s+/g, ' '));
  });
});
