/**
 * A baseline's `contextWindowTokens` are written in the order of the scenario's `models` (sorted where the
 * check is made, run.ts), not sorted a second time by hand: a check of runs at three models writes both
 * lists in the same order, byte for byte as before.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

/** The healthy recordings, their three runs priced at three models (gpt-4o, gpt-4.1-nano and gpt-4o-mini, in that order). */
function threeModelScenario(): string {
  const dir = tempDir();
  for (const name of ['healthy-recordings.check.yaml', 'reference-sum-of-squares.jsonl']) copyFileSync(join('scenarios', name), join(dir, name));
  const lines = readFileSync('scenarios/recorded-pair.jsonl', 'utf8').split('\n');
  const headers = lines.flatMap((line, i) => (line.includes('"type":"header"') ? [i] : []));
  expect(headers).toHaveLength(2);
  lines[headers[0]!] = lines[headers[0]!]!.replace('"model":"gpt-4o-mini"', '"model":"gpt-4o"');
  lines[headers[1]!] = lines[headers[1]!]!.replace('"model":"gpt-4o-mini"', '"model":"gpt-4.1-nano"');
  writeFileSync(join(dir, 'recorded-pair.jsonl'), lines.join('\n'));
  return join(dir, 'healthy-recordings.check.yaml');
}

describe('a baseline of a scenario run at several models', () => {
  it('writes its models and their context windows in one order, the same bytes', async () => {
    const file = threeModelScenario();
    const baseline = join(tempDir(), 'baseline.json');
    await cli('check', file, '--update-baseline', baseline);
    const text = readFileSync(baseline, 'utf8');
    const models = '      "models": [\n        "gpt-4.1-nano",\n        "gpt-4o",\n        "gpt-4o-mini"\n      ],\n';
    const windows = '      "contextWindowTokens": {\n        "gpt-4.1-nano": 1000000,\n        "gpt-4o": 128000,\n        "gpt-4o-mini": 128000\n      },\n';
    expect(text).toContain(`${models}${windows}      "syntheticRuns": 0,\n`);
  });
});
