// The CLI's `main`, from the two linked scripts the build writes (scripts/bundle-cli.mjs, bundle-link.mjs):
// dist/cli-bundle.js, the command line (all that `--help`, `--version` or a refused flag need, ~0.1 MB), and
// dist/cli-actions-bundle.js, the commands' work, compiled on a command's first action. Each is compiled
// with V8's code cache (dist/<name>.cache, scripts/cli-code-cache.mjs) so that a start neither resolves
// ~300 modules nor compiles their code again. A cache is used only when it was written for this very
// script (its build id) and V8 accepts it (same V8 version and flags); otherwise the script is compiled as
// usual. Without the bundles (a tree built by tsc alone), the modules in dist/ are imported as they are.
// The actions script has one cache per command family: check, whatif and sweep each their own, taken after a
// run of that command; every other command replay's (dist/cli-actions-bundle.cache), so that replay
// deserialises only what it runs. The sweep worker threads load their own bundle the same way
// (dist/sweep-worker-bundle.js and .cache, bin/sweepWorker.js).
'use strict';
const { readFile, readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { Script, constants } = require('node:vm');

const distUrl = new URL('../dist/', pathToFileURL(__filename));

/** A bundle's first line names its build: `// loopcost CLI bundle <id> …` (or `sweep worker bundle`). */
const buildIdOf = (source) => /^\/\/ loopcost [\w ]*?bundle (\S+)/.exec(source)?.[1];

/** A file's bytes, undefined when it cannot be read. */
function bytesOf(url) {
  try {
    return readFileSync(url);
  } catch {
    return undefined;
  }
}

/** The cache file's bytes (`<build id>\n` then V8's cached data) as V8's cached data; undefined when missing or made for another bundle. */
function cachedDataFor(bytes, buildId) {
  if (bytes === undefined) return undefined;
  const newline = bytes.indexOf(10);
  if (newline < 0 || buildId === undefined || bytes.toString('latin1', 0, newline) !== buildId) return undefined;
  return bytes.subarray(newline + 1);
}

/** The commands whose work has a code cache of its own (dist/cli-actions-bundle.<command>.cache). */
const OWN_ACTIONS_CACHE = ['check', 'whatif', 'sweep'];

/** The name of the actions' cache for `command` (undefined or another command: replay's). */
const actionsCacheOf = (command) => (OWN_ACTIONS_CACHE.includes(command) ? `cli-actions-bundle.${command}` : 'cli-actions-bundle');

/** The command an action module serves: `cli/actions/sweep.js` → `sweep`. */
const commandOfAction = (key) => /^cli\/actions\/([\w-]+)\.js$/.exec(key)?.[1];

/** The script file of bundle `name` of dist/, and the cache file `cacheName` (default: the bundle's own). */
const filesOf = (name, cacheName = name) => ({ script: new URL(`${name}.js`, distUrl), cache: new URL(`${cacheName}.cache`, distUrl) });

/**
 * Reads bundle `name`'s script and cache `cacheName` on libuv's threads, while this thread goes on (the
 * actions script's 1.3 MB and ~1 MB of cache: ~8 ms a start, faulting fresh pages in): `{ cacheName,
 * script, cache }`, promises of their bytes (undefined when unreadable).
 */
function readBundleAhead(name, cacheName) {
  const read = (url) => new Promise((resolve) => readFile(url, (error, bytes) => resolve(error ? undefined : bytes)));
  const files = filesOf(name, cacheName);
  return { cacheName, script: read(files.script), cache: read(files.cache) };
}

/**
 * Bundle `name` of dist/ (`cli-bundle`, `cli-actions-bundle`, `sweep-worker-bundle`) compiled (with the
 * cache `cacheName`.cache, by default `name`.cache, when it fits), not yet run: `{ script, source,
 * cachedDataRejected }`; undefined without the bundle. `read`: `{ script, cache }` bytes read ahead
 * (either may be left out: read now).
 */
function compileBundle(name, { useCache = true, read, cacheName } = {}) {
  const files = filesOf(name, cacheName);
  const scriptBytes = read?.script ?? bytesOf(files.script);
  if (scriptBytes === undefined) return undefined;
  // The build writes ASCII only (esbuild's `charset: 'ascii'`): one-byte text, no UTF-8 decoding.
  const source = scriptBytes.latin1Slice(0, scriptBytes.length);
  const bundleUrl = files.script;
  const cachedData = useCache ? cachedDataFor(read?.cache ?? bytesOf(files.cache), buildIdOf(source)) : undefined;
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
 * on the first action (`linked.loadAction`, with the cache of the action's command), with the command
 * line's shared modules: `{ main, compiled }` (the scripts, whose caches the build's code-cache step
 * takes); undefined without the bundles. `readAheadFor`: a command name; the actions script and that
 * command's cache are read while the command line compiles and parses.
 */
async function loadLinkedCli({ useCache = true, readAheadFor } = {}) {
  const ahead = readAheadFor === undefined ? undefined : readBundleAhead('cli-actions-bundle', actionsCacheOf(readAheadFor));
  const commandLine = compileBundle('cli-bundle', { useCache });
  if (commandLine === undefined) return undefined;
  const compiled = { commandLine, actions: undefined };
  const linked = {};
  let actionsRun;
  linked.loadAction = async (key) => {
    actionsRun ??= (async () => {
      const cacheName = actionsCacheOf(commandOfAction(key));
      const read = ahead === undefined ? undefined : { script: await ahead.script, cache: ahead.cacheName === cacheName ? await ahead.cache : undefined };
      compiled.actions = compileBundle('cli-actions-bundle', { useCache, read, cacheName });
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

/** Whether `argv` asks for a command's work (not help or the version), so the actions are worth reading ahead. */
const runsAnAction = (argv) => argv.length > 0 && argv[0] !== 'help' && !argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version' || arg === '-V');

/** `main` of the CLI (for `argv`): from the bundles when the build wrote them, else from dist/cli/main.js. */
async function loadMain(argv = []) {
  const cli = await loadLinkedCli(runsAnAction(argv) ? { readAheadFor: argv[0] } : {});
  return cli === undefined ? (await import('../dist/cli/main.js')).main : cli.main;
}

/** A sweep worker's work (src/cli/actions/sweepWorkerRun.ts): from its bundle when the build wrote one, else from dist/. */
async function loadSweepWorker() {
  const compiled = compileBundle('sweep-worker-bundle');
  if (compiled === undefined) return (await import('../dist/cli/actions/sweepWorkerRun.js')).runSweepWorker;
  return (await runBundle(compiled.script)).runSweepWorker;
}

module.exports = { compileBundle, runBundle, loadLinkedCli, loadMain, loadSweepWorker, buildIdOf, OWN_ACTIONS_CACHE, actionsCacheOf };
