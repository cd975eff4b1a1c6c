/**
 * Small files with one job, functions that fit a screen: every source file of src/ is at most 300 lines and
 * every function, method and arrow function in it at most 50 (test/sourceShape.ts longFunctions). Rounds of
 * splits brought every one under both (the last: drive, runImport, emptyCompiled, fillGeneral, sweepPlan,
 * classifyEndpoint, assembleChatStream, callAndEndSchemas); this keeps them there.
 */
import { readFileSync } from 'node:fs';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { longFunctions } from './sourceShape.js';

const FILES = globSync('src/**/*.ts').sort();
/** A screen. */
const SCREEN_LINES = 50;
const FILE_LINES = 300;

describe('source size', () => {
  it('reads the whole of src/', () => {
    expect(FILES.length).toBeGreaterThan(500);
  });

  it('every function fits a screen (50 lines)', () => {
    expect(FILES.flatMap((file) => longFunctions(file, SCREEN_LINES))).toEqual([]);
  });

  it('every file is at most 300 lines', () => {
    const lines = (file: string) => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;
    expect(FILES.filter((file) => lines(file) > FILE_LINES).map((file) => `${file} (${lines(file)})`)).toEqual([]);
  });
});
