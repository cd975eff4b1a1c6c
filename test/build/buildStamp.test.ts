/**
 * The build stamp (scripts/build-stamp.mjs): `npm test` skips the build only when dist/ is what a build left from
 * the sources as they are now — every input's bytes, and dist/'s files as the build ended.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script, no types
import { beginBuild, endBuild, inputsHash, staleReason } from '../../scripts/build-stamp.mjs';

/** A project root with one source, one script, a package.json and a dist/ written by a "build". */
function builtProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'loopcost-stamp-'));
  for (const dir of ['src/pricing', 'scripts', 'bin', 'dist']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'scripts/s.mjs'), '// script\n');
  writeFileSync(join(root, 'package.json'), '{"name":"x"}\n');
  beginBuild(root);
  writeFileSync(join(root, 'dist/a.js'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src/pricing/genai-prices-data.jsonl'), '{}\n'); // the build writes this into src/
  expect(endBuild(root)).toBe(true);
  return root;
}

describe('build stamp', () => {
  it('a finished build is up to date; the price data the build writes into src/ is no input', () => {
    const root = builtProject();
    expect(staleReason(root)).toBeUndefined();
    rmSync(root, { recursive: true });
  });

  it('a changed, added or removed input makes dist/ stale', () => {
    for (const change of [
      (root: string) => writeFileSync(join(root, 'src/a.ts'), 'export const a = 2;\n'),
      (root: string) => writeFileSync(join(root, 'src/b.ts'), ''),
      (root: string) => writeFileSync(join(root, 'package.json'), '{"name":"y"}\n'),
      (root: string) => writeFileSync(join(root, 'bin/x.js'), ''),
      (root: string) => rmSync(join(root, 'scripts/s.mjs')),
    ]) {
      const root = builtProject();
      change(root);
      expect(staleReason(root)).toBe('the sources changed since the last build');
      rmSync(root, { recursive: true });
    }
  });

  it('a dist/ file removed or changed in size makes it stale; so does a build that never finished', () => {
    const root = builtProject();
    writeFileSync(join(root, 'dist/a.js'), 'export const a = 10;\n');
    expect(staleReason(root)).toBe('dist/a.js is not as the build left it');
    rmSync(join(root, 'dist/a.js'));
    expect(staleReason(root)).toBe('dist/a.js is not as the build left it');
    beginBuild(root);
    expect(staleReason(root)).toMatch(/^no build stamp/);
    rmSync(root, { recursive: true });
  });

  it('a source changed while the build ran leaves no stamp', () => {
    const root = builtProject();
    beginBuild(root);
    const before = inputsHash(root);
    writeFileSync(join(root, 'src/a.ts'), 'export const a = 3;\n');
    expect(inputsHash(root)).not.toBe(before);
    expect(endBuild(root)).toBe(false);
    expect(staleReason(root)).toMatch(/^no build stamp/);
    rmSync(root, { recursive: true });
  });
});
