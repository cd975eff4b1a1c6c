/**
 * Every distinct text of the shared real traces and agent logs (../shared) and of test/fixtures: each
 * string value of their JSON, JSON lines and YAML (gzip read through), and the JSON a string holds (a
 * cassette's request body). For tests that must hold on all real text the project reads.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';

const ROOTS = ['../shared/traces', '../shared/agent-logs', 'test/fixtures'];

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else out.push(path);
  }
  return out;
}

function parsedValues(path: string, text: string): unknown[] {
  const name = path.replace(/\.gz$/, '');
  if (/\.ya?ml$/.test(name)) return parseAllDocuments(text).map((document) => document.toJS({ maxAliasCount: -1 }) as unknown);
  try {
    return [JSON.parse(text)];
  } catch {
    return text.split('\n').flatMap((line) => {
      try {
        return [JSON.parse(line) as unknown];
      } catch {
        return [];
      }
    });
  }
}

function collect(value: unknown, texts: Set<string>): void {
  if (typeof value === 'string') {
    if (value.length === 0 || texts.has(value)) return;
    texts.add(value);
    if (/^\s*[[{]/.test(value)) for (const inner of parsedValues('.json', value)) collect(inner, texts);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, texts);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) collect(item, texts);
  }
}

let cached: string[] | undefined;

export function sharedTexts(): string[] {
  if (cached) return cached;
  const texts = new Set<string>();
  for (const path of ROOTS.flatMap((root) => filesUnder(root))) {
    if (!/\.(json|jsonl|traj|ya?ml)(\.gz)?$/.test(path)) continue;
    const bytes = readFileSync(path);
    const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    for (const value of parsedValues(path, text)) collect(value, texts);
  }
  cached = [...texts];
  return cached;
}
