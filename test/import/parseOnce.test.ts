/**
 * A trajectory is parsed once per read: format detection parses the whole document to tell what it is,
 * and hands the value to its importer (src/import/common/jsonDocument.ts) instead of the importer parsing
 * the same text again. The runs are those of the importer alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { importMiniSweAgent } from '../../src/import/miniSweAgent.js';
import { parseJsonDocument } from '../../src/import/common/jsonDocument.js';

const FIXTURE = join('test', 'fixtures', 'mini-swe-agent', 'deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json');

afterEach(() => vi.restoreAllMocks());

describe('one JSON.parse per document', () => {
  it('loadTraceFile of a mini-swe-agent trajectory parses its text once, and reads the runs the importer reads', async () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const parse = vi.spyOn(JSON, 'parse');
    const runs = await loadTraceFile(FIXTURE);
    const parsesOfDocument = parse.mock.calls.filter(([arg]) => arg === text).length;
    vi.restoreAllMocks();
    expect(parsesOfDocument).toBe(1);
    expect(runs).toEqual(importMiniSweAgent(text, FIXTURE));
  });

  it('hands a value on once, and only for the same text', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const a = parseJsonDocument('{"a":[1]}', 'a.json', 'doc');
    expect(parseJsonDocument('{"a":[1]}', 'a.json', 'doc')).toBe(a);
    expect(parseJsonDocument('{"a":[1]}', 'a.json', 'doc')).not.toBe(a); // taken: parsed again
    parseJsonDocument('{"b":2}', 'b.json', 'doc');
    expect(parseJsonDocument('{"a":[1]}', 'a.json', 'doc')).toEqual({ a: [1] });
    expect(parse.mock.calls.filter(([arg]) => arg === '{"a":[1]}')).toHaveLength(3);
  });
});
