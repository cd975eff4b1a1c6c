import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';

// Files of native runs read a few bytes at a time (lines and characters cut across reads) give what one read gives.
describe('ReadOptions.chunkBytes', () => {
  it('any chunk size reads the same runs', async () => {
    for (const file of ['scenarios/recorded-pair.jsonl', 'scenarios/long-exploration.jsonl']) {
      const whole = await loadTraceFile(file);
      expect(whole.length).toBeGreaterThan(0);
      for (const chunkBytes of [7, 64, 4096]) expect(await loadTraceFile(file, { chunkBytes })).toEqual(whole);
    }
  });
});
