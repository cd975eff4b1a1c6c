// The CLI's `main`, from the two linked scripts the build writes (scripts/bundle-cli.mjs, bundle-link.mjs):
// dist/cli-bundle.js, the command line (all that `--help`, `--version` or a refused flag need, ~0.1 MB), and
// dist/cli-actions-bundle.js, the commands' work, compiled on a command's first action. Each is compiled
// with V8's code cache (dist/<name>.cache, scripts/cli-code-cache.mjs) so that a start neither resolves
// ~300 modules nor compiles their code again. A cache is used only when it was written for this very
// script (its build id) and V8 accepts it (same V8 version and flags); otherwise the script is compiled as
// usual. Without the bundles (a tree built by tsc alone), the modules in dist/ are imported as they are.
// The sweep worker threads load their own bundle the same way (dist/sweep-worker-bundle.js and .cache,
// bin/sweepWorker.js).
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { Script, constants } = require('node:vm');

const distUrl = new URL('../dist/', pathToFileURL(__filename));

/**
 * `small`: V8's young generation kept at the size it has when the actions load (`--semi-space-growth-factor=1`,
 * 1–2 MB); otherwise grown as V8 grows it by default (factor 2). Left to grow (to 8 MB in `replay scenarios/`)
 * while a start's module state survives its first scavenges, it moves into pages the OS must first fault in
 * (~10 µs a page on these machines); kept small, each scavenge reuses the pages it has: `replay scenarios/`
 * ~1,450 page faults and ~10 ms fewer (README, Development). `generate`, `check`, `calibrate`, `project`
 * and `sweep`, whose batches of synthetic runs and long runs outlive a small young generation, let it grow
 * again (src/cli/youngGeneration.ts). Flags are part of what a code cache is checked against: the command
 * line is compiled under the default, the actions script under this, the sweep workers (which share the
 * process's flags) under the grown young generation a sweep starts them with, and the build's cache step
 * (scripts/cli-code-cache.mjs) takes each cache under the same. LOOPCOST_YOUNG_GENERATION=default leaves
 * V8's default throughout (to compare; test/cli/bundle.test.ts).
 */
function youngGenerationKeptSmall(small) {
  if (process.env.LOOPCOST_YOUNG_GENERATION === 'default') return;
  require('node:v8').setFlagsFromString(`--semi-space-growth-factor=${small ? 1 : 2}`);
}

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
 * Bundle `name` of dist/ (`cli-bundle`, `cli-actions-bundle`, `sweep-worker-bundle`) compiled (with its
 * cache `name`.cache when it fits), not yet run: `{ script, source, cachedDataRejected }`; undefined
 * without the bundle.
 */
function compileBundle(name, { useCache = true } = {}) {
  const bundleUrl = new URL(`${name}.js`, distUrl);
  let source;
  try {
    // The build writes ASCII only (esbuild's `charset: 'ascii'`): read as one-byte text, no UTF-8 decoding.
    source = readFileSync(bundleUrl, 'latin1');
  } catch {
    return undefined;
  }
  const cachedData = useCache ? cachedDataFor(new URL(`${name}.cache`, distUrl), buildIdOf(source)) : undefined;
  const script = new Script(source, {
    filename: fileURLToPath(bundleUrl),
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  return { script, source, cachedDataRejected: cachedData === undefined || script.cachedDataRejected === true };
}

/** Runs a compiled bundle with `linked` (the pair's shared object): resolves to what it exports (`{ main }`, `{ runSweepWorker }`). */
async function runBundle(script, linked = {}) {
  const exported = {};
  await script.runInThisContext()(createRequire(new URL('cli-bundle.js', distUrl)), distUrl.href, exported, linked);
  return exported;
}

/**
 * The CLI's pair (scripts/bundle-link.mjs): the command line run now, the actions script compiled and run
 * on the first action (`linked.loadAction`), with the command line's shared modules: `{ main, compiled }`
 * (the scripts, whose caches the build's code-cache step takes); undefined without the bundles.
 */
async function loadLinkedCli({ useCache = true } = {}) {
  const commandLine = compileBundle('cli-bundle', { useCache });
  if (commandLine === undefined) return undefined;
  const compiled = { commandLine, actions: undefined };
  const linked = {};
  let actionsRun;
  linked.loadAction = async (key) => {
    actionsRun ??= (async () => {
      youngGenerationKeptSmall(true);
      compiled.actions = compileBundle('cli-actions-bundle', { useCache });
      if (compiled.actions === undefined) throw new Error('loopcost: dist/cli-actions-bundle.js is missing (dist/cli-bundle.js is there): run `npm run build`');
      if (buildIdOf(compiled.actions.source) !== buildIdOf(commandLine.source)) throw new Error('loopcost: dist/cli-bundle.js and dist/cli-actions-bundle.js are not from the same build: run `npm run build`');
      return runBundle(compiled.actions.script, linked);
    })();
    return (await actionsRun).actions[key]();
  };
  const { main, shellModules } = await runBundle(commandLine.script, linked);
  linked.shellModules = shellModules;
  return { main, compiled };
}

/** `main` of the CLI: from the bundles when the build wrote them, else from dist/cli/main.js. */
async function loadMain() {
  const cli = await loadLinkedCli();
  return cli === undefined ? (await import('../dist/cli/main.js')).main : cli.main;
}

/** A sweep worker's work (src/cli/actions/sweepWorkerRun.ts): from its bundle when the build wrote one, else from dist/. */
async function loadSweepWorker() {
  const compiled = compileBundle('sweep-worker-bundle');
  if (compiled === undefined) return (await import('../dist/cli/actions/sweepWorkerRun.js')).runSweepWorker;
  return (await runBundle(compiled.script)).runSweepWorker;
}

module.exports = { youngGenerationKeptSmall, compileBundle, runBundle, loadLinkedCli, loadMain, loadSweepWorker, buildIdOf };
