// The build's stamp: `npm test` builds only when dist/ was not built from the sources as they are now.
// `npm ci` already builds (`prepare`), so a fresh clone's `npm ci && npm test` built twice (~20 s of tsc).
//
// The stamp (dist/.build-stamp.json) names the SHA-256 of every input of the build — src/ (less the price
// data the build copies into it), scripts/, bin/, the tsconfigs, package.json, package-lock.json, and the
// Node version and platform (dist/ holds V8 code caches) — and each file dist/ held when the build ended, with
// its size. dist/ is up to date when both still hold. Written only when the inputs at the build's end are those
// at its start (a source changed while tsc ran leaves no stamp, so the next `npm test` builds again).
//
// node scripts/build-stamp.mjs begin    first step of `npm run build`: drops the stamp, notes the inputs' hash
// node scripts/build-stamp.mjs end      last step of `npm run build`: writes the stamp
// node scripts/build-stamp.mjs ensure   `npm test`: runs `npm run build` unless dist/ is up to date
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const STAMP = 'dist/.build-stamp.json';
const PENDING = 'dist/.build-stamp.pending';
const INPUT_DIRS = ['src', 'scripts', 'bin'];
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
/** Written into src/ by the build itself (scripts/write-genai-data.mjs), from a package package-lock.json pins. */
const BUILD_WRITTEN = new Set(['src/pricing/genai-prices-data.jsonl']);

/** Every regular file under `dir`, as paths relative to `root` with `/`, sorted. */
function filesUnder(root, dir) {
  const out = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  if (existsSync(join(root, dir))) walk(join(root, dir));
  return out.sort();
}

/** The SHA-256 of the build's inputs in `root`: each file's path and bytes, the Node version and platform. */
export function inputsHash(root) {
  const hash = createHash('sha256').update(`node ${process.version} ${process.platform} ${process.arch}\n`);
  const files = [...INPUT_DIRS.flatMap((dir) => filesUnder(root, dir)), ...INPUT_FILES.filter((file) => existsSync(join(root, file)))];
  for (const file of files.filter((f) => !BUILD_WRITTEN.has(f))) {
    const bytes = readFileSync(join(root, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

/** dist/'s files (the stamp and its pending note left out) and their sizes. */
function distFiles(root) {
  return Object.fromEntries(filesUnder(root, 'dist').filter((f) => f !== STAMP && f !== PENDING).map((f) => [f, statSync(join(root, f)).size]));
}

/** Why dist/ in `root` is not the build of the sources as they are now; undefined when it is. */
export function staleReason(root) {
  const stampPath = join(root, STAMP);
  if (!existsSync(stampPath)) return 'no build stamp (dist/ never built here, or its build did not finish)';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampPath, 'utf8'));
  } catch {
    return 'the build stamp is unreadable';
  }
  if (stamp.inputs !== inputsHash(root)) return 'the sources changed since the last build';
  for (const [file, size] of Object.entries(stamp.files ?? {})) {
    if (!existsSync(join(root, file)) || statSync(join(root, file)).size !== size) return `${file} is not as the build left it`;
  }
  return undefined;
}

/** First step of a build: no stamp while it runs; the inputs' hash as the build starts. */
export function beginBuild(root) {
  rmSync(join(root, STAMP), { force: true });
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, PENDING), inputsHash(root));
}

/** Last step of a build: the stamp, when the inputs are those it started from. Returns whether it was written. */
export function endBuild(root) {
  const pendingPath = join(root, PENDING);
  const started = existsSync(pendingPath) ? readFileSync(pendingPath, 'utf8') : undefined;
  rmSync(pendingPath, { force: true });
  const inputs = inputsHash(root);
  if (started !== inputs) return false;
  writeFileSync(join(root, STAMP), JSON.stringify({ inputs, files: distFiles(root) }) + '\n');
  return true;
}

function run(command, root) {
  if (command === 'begin') return beginBuild(root), 0;
  if (command === 'end') {
    if (!endBuild(root)) console.error('build stamp: the sources changed while the build ran; the next npm test builds again');
    return 0;
  }
  if (command === 'ensure') {
    const reason = staleReason(root);
    if (reason === undefined) {
      console.error('build: dist/ is up to date with the sources (dist/.build-stamp.json); not rebuilt');
      return 0;
    }
    console.error(`build: ${reason}: npm run build`);
    return spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;
  }
  console.error('usage: node scripts/build-stamp.mjs begin|end|ensure');
  return 2;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = run(process.argv[2], resolve(dirname(fileURLToPath(import.meta.url)), '..'));
}
