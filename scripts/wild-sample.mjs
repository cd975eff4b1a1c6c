#!/usr/bin/env node
/**
 * The wild-sample figure: loopcost's importer on a seeded random sample of the VCR cassettes in
 * pydantic-ai's test suite (recorded by others against live providers), checked against an independent
 * count (scripts/wild-count.mjs). Not part of `npm test`: it needs a copy of pydantic-ai.
 *
 *   git clone https://github.com/pydantic/pydantic-ai /tmp/pydantic-ai
 *   npm run build && node scripts/wild-sample.mjs --repo /tmp/pydantic-ai [--seed 15] [--size 200] [--json out.json]
 *
 * The population is every `tests/**\/cassettes/**.yaml` at commit COMMIT (read with git, so any clone
 * holding that commit gives the same files), minus the cassettes loopcost's tests already use (those
 * byte-identical to a file in ../shared/traces/cassettes or test/fixtures/cassettes, and the sources
 * named in the first line of each trimmed fixture). A seeded shuffle picks the sample. For each cassette:
 *   - the independent count: is it HTTP exchanges, how many model calls, how many tokens;
 *   - loopcost: imported (runs, calls, token totals), refused with a UserError, or an internal error.
 * It passes when ≥ 95% of the sampled cassettes holding a model call import, none has an internal
 * error, and every imported one has the counter's calls and input / output / cached / reasoning totals.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countCassette } from './wild-count.mjs';

const COMMIT = '4fda38988f2939fa6ea9cdefcf120693e10ef491';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const repo = opt('repo');
if (!repo) {
  console.error('usage: node scripts/wild-sample.mjs --repo PATH_TO_PYDANTIC_AI_CLONE [--seed N] [--size N] [--json FILE]');
  process.exit(2);
}
const seed = Number(opt('seed', '15'));
const size = Number(opt('size', '200'));
const { importText } = await import(join(root, 'dist', 'import', 'index.js'));
const { UserError } = await import(join(root, 'dist', 'errors.js'));

const git = (...a) => execFileSync('git', ['-C', repo, ...a], { maxBuffer: 1 << 30 });

/** mulberry32: a small seeded generator (the shuffle must be the same everywhere). */
function random(seedValue) {
  let a = seedValue >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const usedHashes = new Set(
  [join(root, '..', 'shared', 'traces', 'cassettes'), join(root, 'test', 'fixtures', 'cassettes')].flatMap((dir) =>
    readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => sha(readFileSync(join(dir, f)))),
  ),
);
const usedPaths = new Set(
  readdirSync(join(root, 'test', 'fixtures', 'cassettes'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => /^# Trimmed from [^:]+:(\S+)/.exec(readFileSync(join(root, 'test', 'fixtures', 'cassettes', f), 'utf8'))?.[1])
    .filter(Boolean),
);

const all = git('ls-tree', '-r', '--name-only', COMMIT).toString().split('\n').filter((p) => /^tests\/.*cassettes\/.*\.yaml$/.test(p)).sort();
const blobs = new Map(
  git('ls-tree', '-r', COMMIT)
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((line) => [line.split('\t')[1], line.split(/\s+/)[2]]),
);
const readBlob = (path) => {
  try {
    return execFileSync('git', ['-C', repo, 'cat-file', 'blob', blobs.get(path)], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
};

const candidates = all.filter((p) => !usedPaths.has(p));
const rand = random(seed);
const shuffled = [...candidates];
for (let i = shuffled.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
}

const rows = [];
for (const path of shuffled) {
  if (rows.length >= size) break;
  const bytes = readBlob(path);
  if (bytes === undefined) {
    rows.push({ path, absent: true });
    continue;
  }
  if (usedHashes.has(sha(bytes))) continue; // a copy the tests use (not counted towards the sample)
  const text = bytes.toString('utf8');
  const row = { path, count: countCassette(text) };
  try {
    const traces = importText(text, path);
    const calls = traces.flatMap((t) => t.calls);
    row.imported = {
      runs: traces.length,
      calls: calls.length,
      input: calls.reduce((s, c) => s + (c.inputTokens ?? 0), 0),
      output: calls.reduce((s, c) => s + c.outputTokens, 0),
      cached: calls.reduce((s, c) => s + (c.cachedInputTokens ?? 0), 0),
      reasoning: calls.reduce((s, c) => s + (c.reasoningTokens ?? 0), 0),
    };
  } catch (error) {
    if (error instanceof UserError) row.refused = `${error.issues[0].code}: ${error.issues[0].message}`.slice(0, 200);
    else row.internal = String(error?.stack ?? error).slice(0, 400);
  }
  rows.push(row);
}

const sampled = rows.filter((r) => !r.absent);
const notHttp = sampled.filter((r) => r.count.kind === 'not-http');
const withCall = sampled.filter((r) => r.count.kind === 'http' && r.count.calls > 0);
const withoutCall = sampled.filter((r) => r.count.kind === 'http' && r.count.calls === 0);
const imported = withCall.filter((r) => r.imported);
const same = (r) => ['calls', 'input', 'output', 'cached', 'reasoning'].every((k) => r.imported[k] === r.count[k]);
const mismatched = imported.filter((r) => !same(r));
const internal = sampled.filter((r) => r.internal);
const share = withCall.length === 0 ? 0 : imported.length / withCall.length;
const sum = (list, side, k) => list.reduce((s, r) => s + r[side][k], 0);

const lines = [
  `pydantic/pydantic-ai@${COMMIT}: ${all.length} cassettes; ${all.length - candidates.length} used by loopcost's tests (trimmed fixtures) excluded, copies of shared ones skipped`,
  `seed ${seed}: ${rows.length} drawn, ${rows.length - sampled.length} absent from this copy, ${sampled.length} read`,
  `  not HTTP exchanges (websocket frames, gRPC samples): ${notHttp.length}, all refused with a UserError: ${notHttp.every((r) => r.refused) ? 'yes' : 'NO'}`,
  `  HTTP, no model call (independent count): ${withoutCall.length}, refused with a UserError: ${withoutCall.filter((r) => r.refused).length}, imported: ${withoutCall.filter((r) => r.imported).length}`,
  `  HTTP, holding a model call: ${withCall.length}: imported ${imported.length} (${(share * 100).toFixed(1)}%), refused ${withCall.filter((r) => r.refused).length}, internal errors ${withCall.filter((r) => r.internal).length}`,
  `  token totals of the imported ones equal the independent count: ${imported.length - mismatched.length} of ${imported.length} (calls ${sum(imported, 'imported', 'calls')}, input ${sum(imported, 'imported', 'input')}, output ${sum(imported, 'imported', 'output')}, cached ${sum(imported, 'imported', 'cached')}, reasoning ${sum(imported, 'imported', 'reasoning')})`,
  `  internal errors in the whole sample: ${internal.length}`,
  ...withCall.filter((r) => r.refused).map((r) => `  refused: ${r.path}: ${r.refused}`),
  ...mismatched.map((r) => `  MISMATCH: ${r.path}: loopcost ${JSON.stringify(r.imported)} vs count ${JSON.stringify(r.count)}`),
  ...internal.map((r) => `  INTERNAL: ${r.path}: ${r.internal}`),
];
console.log(lines.join('\n'));
const jsonOut = opt('json');
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ commit: COMMIT, seed, size, rows }, null, 1));
const pass = withCall.length >= 150 && share >= 0.95 && internal.length === 0 && mismatched.length === 0;
console.log(pass ? 'PASS' : 'FAIL');
process.exit(pass ? 0 : 1);
