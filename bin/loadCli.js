// The CLI's `main`, from the one-script bundle the build writes (dist/cli-bundle.js, scripts/bundle-cli.mjs),
// compiled with V8's code cache (dist/cli-bundle.cache, scripts/cli-code-cache.mjs) so that a start neither
// resolves ~300 modules nor compiles their code again. The cache is used only when it was written for this
// very bundle (its build id) and V8 accepts it (same V8 version and flags); otherwise the bundle is compiled
// as usual. Without a bundle (a tree built by tsc alone), the modules in dist/ are imported as they are.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { Script, constants } = require('node:vm');

const distUrl = new URL('../dist/', pathToFileURL(__filename));
const bundleUrl = new URL('cli-bundle.js', distUrl);
const cacheUrl = new URL('cli-bundle.cache', distUrl);

/** The bundle's first line names its build: `// loopcost CLI bundle <id> …`. */
const buildIdOf = (source) => /^\/\/ loopcost CLI bundle (\S+)/.exec(source)?.[1];

/** The cache file: `<build id>\n` then V8's cached data; undefined when missing or made for another bundle. */
function cachedDataFor(buildId) {
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

/** The bundle compiled (with the cache when it fits), not yet run: `{ script, source, cachedDataRejected }`. */
function compileCliBundle({ useCache = true } = {}) {
  let source;
  try {
    source = readFileSync(bundleUrl, 'utf8');
  } catch {
    return undefined;
  }
  const cachedData = useCache ? cachedDataFor(buildIdOf(source)) : undefined;
  const script = new Script(source, {
    filename: fileURLToPath(bundleUrl),
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  return { script, source, cachedDataRejected: cachedData === undefined || script.cachedDataRejected === true };
}

/** Runs a compiled bundle: resolves to `{ main }`. */
async function runCliBundle(script) {
  const exported = {};
  await script.runInThisContext()(createRequire(new URL('cli-bundle.js', distUrl)), distUrl.href, exported);
  return exported;
}

/** `main` of the CLI: from the bundle when the build wrote one, else from dist/cli/main.js. */
async function loadMain() {
  const compiled = compileCliBundle();
  if (compiled === undefined) return (await import('../dist/cli/main.js')).main;
  return (await runCliBundle(compiled.script)).main;
}

module.exports = { compileCliBundle, runCliBundle, loadMain };
