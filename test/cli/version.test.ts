/** The version every report, cache key and `--version` states is package.json's (src/version.ts is a constant so the core reads no file). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOOPCOST_VERSION } from '../../src/version.js';

describe("loopcost's version", () => {
  it("is package.json's", () => {
    expect(LOOPCOST_VERSION).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
  });
});
