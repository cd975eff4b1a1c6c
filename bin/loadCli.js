// The CLI's `main`, from the one-script bundle the build writes (dist/cli-bundle.js, scripts/bundle-cli.mjs),
// compiled with V8's code cache (dist/cli-bundle.cache, scripts/cli-code-cache.mjs) so that a start neither
// resolves ~300 modules nor compiles their code again. The cache is used only when it was written for this
// very bundle (its build id) and V8 accepts it (same V8 version and flags); otherwise the bundle is compiled
// as usual. Without a bundle (a tree built by tsc alone), the modules in dist/ are imported as they are.
// The sweep worker threads load their own bundle the same way (dist/sweep-worker-bundle.js and .cache,
// bin/sweepWorker.js).
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { Script, constants } = require('node:vm');

const distUrl = new URL('../dist/', pathToFileURL(__filename));

/** A bundle's first line names its build: `// loopcost CLI bundle <id> …` (or `sweep worker bundle`). */
const buildIdOf = (source) => /^\/\/ loopcost [\w ]*?bundle (\S+)/.exec(source)?.[1];

/** The cache file: `<build id>\n` then V8's cached data; undefined when missing or made for another bundle. */
function cachedDataFor(cacheUrl, buildId) {
  let bytes;
  try {
    bytes = readFileSync(cacheUrl);
  } catch {
    return undefined;
  }
  const newline = bytes.indexOf(10);
  if (newline < 0 || buildId === undefined || bytes.toString('latin1', 0, newline) !== buildId) return undefined;
  return bytes.subarray(newline + 1);
}

/**
 * Bundle `name` of dist/ (`cli-bundle`, `sweep-worker-bundle`) compiled (with its cache `cacheName`.cache
 * when it fits; by default the bundle's own), not yet run: `{ script, source, cachedDataRejected }`;
 * undefined without the bundle.
 */
function compileBundle(name, { useCache = true, cacheName = name } = {}) {
  const bundleUrl = new URL(`${name}.js`, distUrl);
  let source;
  try {
    // The build writes ASCII only (esbuild's `charset: 'ascii'`): read as one-byte text, no UTF-8 decoding.
    source = readFileSync(bundleUrl, 'latin1');
  } catch {
    return undefined;
  }
  const cachedData = useCache ? cachedDataFor(new URL(`${cacheName}.cache`, distUrl), buildIdOf(source)) : undefined;
  const script = new Script(source, {
    filename: fileURLToPath(bundleUrl),
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  return { script, source, cachedDataRejected: cachedData === undefined || script.cachedDataRejected === true };
}

/** Runs a compiled bundle: resolves to what it exports (`{ main }`, `{ runSweepWorker }`). */
async function runBundle(script) {
  const exported = {};
  await script.runInThisContext()(createRequire(new URL('cli-bundle.js', distUrl)), distUrl.href, exported);
  return exported;
}


const PRINT_ONLY = new Set(['--help', '-h', '--version', '-V']);

/**
 * Whether a start with `argv` only prints help or the version (`--help`, `replay --help`, `-V`): it then
 * takes the light code cache (cli-bundle.light.cache: what those runs compile, half the size to read),
 * any other start the full one. Either fits the same bundle; what a cache lacks compiles as usual.
 */
const printsOnly = (argv) => argv.length <= 2 && argv.some((arg) => PRINT_ONLY.has(arg));

/** `main` of the CLI: from the bundle when the build wrote one, else from dist/cli/main.js. */
async function loadMain(argv = []) {
  const compiled = compileBundle('cli-bundle', printsOnly(argv) ? { cacheName: 'cli-bundle.light' } : {});
  if (compiled === undefined) return (await import('../dist/cli/main.js')).main;
  return (await runBundle(compiled.script)).main;
}

/** A sweep worker's work (src/cli/actions/sweepWorkerRun.ts): from its bundle when the build wrote one, else from dist/. */
async function loadSweepWorker() {
  const compiled = compileBundle('sweep-worker-bundle');
  if (compiled === undefined) return (await import('../dist/cli/actions/sweepWorkerRun.js')).runSweepWorker;
  return (await runBundle(compiled.script)).runSweepWorker;
}

module.exports = { compileBundle, runBundle, loadMain, loadSweepWorker, buildIdOf };
