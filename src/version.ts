/**
 * loopcost's version, as reports, cache keys and `--version` state it. Written here as a constant so the
 * core (reports) states it without reading a file; test/cli/version.test.ts holds it equal to
 * package.json's `version`, so the two cannot drift.
 */
export const LOOPCOST_VERSION = '0.1.0';
