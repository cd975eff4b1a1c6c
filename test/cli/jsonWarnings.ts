import { expect } from 'vitest';
import { cli } from './run.js';

/** A warning as the commands' JSON reports give it. */
export type Warning = { code: string; message: string };

/** The JSON `warnings` of a command that must exit 0 (`--format json` added). */
export async function warningsOf(...argv: string[]): Promise<Warning[]> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).warnings ?? [];
}
