import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';
const PRICES = 'test/fixtures/prices/deepseek-recorded.json';

describe('loopcost import', () => {
  it('converts real trajectories to native JSONL that replays to the same figures', async () => {
    const dir = tempDir();
    const out = join(dir, 'native.jsonl');
    const r = await cli('import', `${MINI}/deepseek_chat_dev`, '--out', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/23 runs from 23 files/);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'header', schema: 'loopcost.trace/1', origin: 'recorded' });
    const fromNative = JSON.parse((await cli('replay', out, '--prices', PRICES, '--format', 'json')).stdout);
    const fromOriginal = JSON.parse((await cli('replay', `${MINI}/deepseek_chat_dev`, '--prices', PRICES, '--format', 'json')).stdout);
    const figures = (runs: Record<string, unknown>[]) => runs.map(({ source: _source, ...rest }) => rest);
    expect(figures(fromNative.runs)).toEqual(figures(fromOriginal.runs));
    expect(fromNative.runs[1].source).toBe(`${out}#2`);
  });

  it('takes globs', async () => {
    const r = await cli('replay', `${MINI}/*/pydicom*.traj.json.gz`, '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).runs.map((run: { task: string }) => run.task)).toEqual([
      'pydicom__pydicom-1139',
      'pydicom__pydicom-1256',
      'pydicom__pydicom-1413',
      'pydicom__pydicom-1694',
      'pydicom__pydicom-901',
    ]);
  });

  it('a bad file among good ones: exit 2, nothing written', async () => {
    const dir = tempDir();
    const bad = join(dir, 'bad.traj.json');
    writeFileSync(bad, readFileSync('test/fixtures/mini-swe-agent/deepseek_reasoner_dev__pvlib__pvlib-python-1154.traj.json', 'utf8').slice(0, 5000));
    const out = join(dir, 'out.jsonl');
    const r = await cli('import', `${MINI}/deepseek_chat_dev`, bad, '--out', out);
    expect(r.code).toBe(2);
    expect(existsSync(out)).toBe(false);
    expect(r.stderr).toMatch(/bad\.traj\.json/);
  });
});

describe('malformed files of each format: exit 2 naming file, line or record, and field', () => {
  const dir = tempDir();
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const mini = readFileSync('test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json', 'utf8');
  const miniDoc = JSON.parse(mini);
  const firstAssistant = miniDoc.messages.findIndex((m: { role: string }) => m.role === 'assistant');
  const noUsage = structuredClone(miniDoc);
  delete noUsage.messages[firstAssistant].extra.response.usage;
  const wrongType = structuredClone(miniDoc);
  wrongType.messages[firstAssistant].extra.response.usage.prompt_tokens = 'many';
  const otel = readFileSync('test/fixtures/otel/three-step-tool-error.json', 'utf8');

  const cases: [string, string, RegExp][] = [
    ['mini-swe-agent truncated', write('trunc.traj.json', mini.slice(0, mini.length / 2)), /trunc\.traj\.json:line \d+.*(not valid JSON|truncated)/],
    ['mini-swe-agent missing usage', write('nousage.traj.json', JSON.stringify(noUsage, null, 1)), new RegExp(`nousage\\.traj\\.json field 'messages\\[${firstAssistant}\\]\\.extra\\.response\\.usage`)],
    ['mini-swe-agent wrong type', write('type.traj.json', JSON.stringify(wrongType)), /type\.traj\.json field 'messages\[\d+\]\.extra\.response\.usage\.prompt_tokens'/],
    ['cassette with no model call', 'test/fixtures/cassettes/search-only-tavily.yaml', /search-only-tavily\.yaml: no model call found among its 1 exchange\(s\)/],
    ['cassette missing usage', 'test/fixtures/cassettes/missing-usage.yaml', /missing-usage\.yaml.*field '.*usage/],
    ['exchanges JSONL truncated line', write('ex.jsonl', readFileSync('test/fixtures/http/anthropic-cache.jsonl', 'utf8').split('\n')[0]!.slice(0, 400)), /ex\.jsonl:line 1/],
    ['OTLP truncated', write('spans.json', otel.slice(0, otel.length - 200)), /spans\.json:line \d+/],
  ];
  for (const [name, path, message] of cases) {
    it(name, async () => {
      const out = join(dir, `${name.replace(/\W/g, '_')}.json`);
      const r = await cli('replay', path, '--format', 'json', '--out', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    });
  }
});
