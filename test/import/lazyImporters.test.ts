/**
 * Reading loads only the importer of the format it detects: the static import graph of the reader
 * (src/import/index.ts, format detection included) reaches no importer, no YAML parser and no
 * OpenTelemetry names. `replay` of native traces starts faster for it (README, speed: bench/startup.mjs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Static, non-type imports of a TypeScript file. */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)';/gm)].map((m) => m[1]!);
}

/** Every module (project files and packages) the file loads before any of its code runs. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith('src/')) continue;
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith('node:')) continue;
      if (!spec.startsWith('.')) todo.push(spec);
      else todo.push(normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts'));
    }
  }
  return seen;
}

describe('lazy importers', () => {
  it('the reader and format detection import no importer, no yaml, no OpenTelemetry names', () => {
    const loaded = [...staticClosure('src/import/index.ts')];
    expect(loaded).toContain('src/import/formats.ts');
    for (const importer of ['src/import/http/cassette.ts', 'src/import/http/exchanges.ts', 'src/import/otel.ts', 'src/import/sweAgent.ts', 'src/import/miniSweAgent.ts', 'src/import/claudeCode.ts', 'src/import/codex.ts']) {
      expect(existsSync(importer), importer).toBe(true);
      expect(loaded, importer).not.toContain(importer);
    }
    expect(loaded.filter((name) => /^(yaml|@opentelemetry)/.test(name))).toEqual([]);
  });

  it('the synchronous importText loads every importer up front', () => {
    const loaded = staticClosure('src/import/importText.ts');
    expect(loaded).toContain('src/import/http/cassette.ts');
    expect(loaded).toContain('yaml');
  });
});
