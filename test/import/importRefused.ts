/** `loopcost import` of a bad file, for the import tests that read its refusal. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli } from '../cli/run.js';

/** `loopcost import` of `text` written as `name` in `dir`: its stderr (the directory left out), after checking it exits 2 with nothing on stdout. */
export async function importRefused(dir: string, name: string, text: string | Buffer): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, text);
  const r = await cli('import', path);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  return r.stderr.replaceAll(`${dir}/`, '');
}
