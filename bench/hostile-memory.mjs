// Peak memory and time of `loopcost replay` on hostile inputs ("bombs"), each under a 64 MB heap cap:
// a gzip bomb (1 MB that inflates to 1 GB on one line), a huge line (300 MB, plain), a blank-line bomb
// (a native run with 1 GB of blank lines in it, gzip), deep nesting (100,000 levels of `[` in tool
// arguments), and /dev/zero. Each must end in exit 0 or 2 within seconds at a flat peak RSS (the limits
// of src/io/limits.ts: --max-input-mb, --max-line-mb). Not a test: run with `npm run bench`.
import { closeSync, createWriteStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { runCliUnderHeapCap } from './cliUnderHeapCap.mjs';
import { smoke, sized } from './lib/smoke.mjs';

const MB = 1 << 20;
// Under --smoke: bombs of 2 MB against limits of 1 MB a file and 0.5 MB a line (the same refusals, tiny).
const BOMB_MB = sized(1024, 2);
const HUGE_MB = sized(300, 2);
const LIMITS = smoke ? ['--max-input-mb', '1', '--max-line-mb', '0.5'] : [];
const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}\n';
const RUN_TAIL = '{"type":"call","inputTokens":100,"outputTokens":5}\n{"type":"end","outcome":"completed"}\n';

/** Gzips `head`, then `totalBytes` of `byte`, then `tail` into `path`, streaming. */
async function gzipOf(path, head, byte, totalBytes, tail) {
  const chunk = Buffer.alloc(4 * MB, byte);
  async function* parts() {
    yield Buffer.from(head);
    for (let left = totalBytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
    yield Buffer.from(tail);
  }
  await pipeline(Readable.from(parts()), createGzip({ level: 1 }), createWriteStream(path));
}

function plainOf(path, head, byte, totalBytes, tail) {
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  const chunk = Buffer.alloc(4 * MB, byte);
  for (let left = totalBytes; left > 0; left -= chunk.length) writeSync(fd, left >= chunk.length ? chunk : chunk.subarray(0, left));
  writeSync(fd, tail);
  closeSync(fd);
}

const dir = mkdtempSync(join(tmpdir(), 'loopcost-bombs-'));
const cases = [
  ['gzip bomb: 1 GB on one line', 'gzip-bomb.traj.json.gz', (p) => gzipOf(p, '{"messages":"', 0x61, BOMB_MB * MB, '"}')],
  ['huge line: 300 MB one-line trajectory', 'huge.traj.json', (p) => plainOf(p, '{"info":{},"messages":[{"role":"user","content":"', 0x61, HUGE_MB * MB, '"}]}')],
  ['huge native line: 300 MB call', 'huge-line.jsonl', (p) => plainOf(p, `${HEADER}{"type":"call","outputTokens":1,"toolCalls":[{"name":"x","resultTokens":1,"arguments":"`, 0x61, HUGE_MB * MB, `"}]}\n${RUN_TAIL}`)],
  ['blank-line bomb: 1 GB of blank lines in a run (gzip)', 'blanks.jsonl.gz', (p) => gzipOf(p, HEADER, 0x0a, BOMB_MB * MB, RUN_TAIL)],
  ['deep nesting: 100,000 levels of [ in tool arguments', 'deep.jsonl', (p) => plainOf(p, `${HEADER}{"type":"call","outputTokens":1,"toolCalls":[{"name":"x","resultTokens":1,"arguments":${'['.repeat(100_000)}`, 0x5d, 100_000, `}]}\n${RUN_TAIL}`)],
  ['/dev/zero', '/dev/zero', async () => undefined],
];

const json = process.argv.includes('--json');
const results = [];
try {
  for (const [name, file, make] of cases) {
    const path = file.startsWith('/') ? file : join(dir, file);
    await make(path);
    const r = runCliUnderHeapCap(['replay', path, '--format', 'json', ...LIMITS]);
    results.push({ case: name, exitCode: r.code, seconds: r.seconds, peakRssMb: r.maxRssKb / 1024 });
    if (!json) console.log(`${name.padEnd(55)} exit ${r.code} in ${r.seconds.toFixed(1).padStart(5)} s, peak RSS ${(r.maxRssKb / 1024).toFixed(0).padStart(4)} MB`);
    if (!file.startsWith('/')) rmSync(path, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (json) console.log(JSON.stringify({ cases: results }));
