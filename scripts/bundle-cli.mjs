// Build step (`npm run build`, after tsc): the CLI as two linked scripts bundled by esbuild from the
// JavaScript tsc has just written to dist/ (the same code the tests import) — dist/cli-bundle.js, the
// command line, and dist/cli-actions-bundle.js, the commands' work (scripts/bundle-link.mjs says how they
// link) — plus the module list and hashes each was made from (dist/<name>.json) for
// test/cli/bundle.test.ts to check. bin/loopcost.js compiles the scripts through V8's code cache
// (scripts/cli-code-cache.mjs writes it next), so a start resolves no module and compiles almost nothing.
// Why: README, Development (bench/startup.mjs). The same for a `sweep --workers` thread's work:
// dist/sweep-worker-bundle.js (.json, .cache), run by bin/sweepWorker.js.
//
// Each script is one async function expression `(async function (nodeRequire, distUrl, exported, linked) {…})`:
// - Node's built-in modules and a few packages kept out of the bundle (big, and loaded only when used) are
//   required at run time through `nodeRequire` (a require rooted in dist/);
// - `import.meta.url` in a dist file becomes that file's own URL (distUrl + its path), so files found
//   beside a module (package.json, the genai-prices JSON copy, the sweep worker's entry) are found;
// - `createRequire(import.meta.url)('pkg')` becomes `require('pkg')`, which esbuild bundles (lazily
//   evaluated, as before);
// - dynamic `import()`s of project files stay lazy (esbuild evaluates a module on its first import);
// - top-level await (genaiData.ts) is allowed: the function is async.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { actionsEntry, actionsOutOfCommandLine, commandLineEntry, commandLineModulesShared, distModulesOf, linkActionImports } from './bundle-link.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(root, 'dist');

/** Packages required at run time instead of bundled: large, and loaded only by the commands that use them. */
const RUNTIME_PACKAGES = ['@pydantic/genai-prices', 'gpt-tokenizer', '@anthropic-ai/tokenizer', 'openai'];
const builtins = new Set(builtinModules);
const isBuiltin = (spec) => spec.startsWith('node:') || builtins.has(spec.split('/')[0]);
const isRuntime = (spec) =>
  isBuiltin(spec) || RUNTIME_PACKAGES.some((name) => spec === name || spec.startsWith(`${name}/`));

/**
 * Built-ins that only a package's CommonJS code requires at load and uses later, if ever: commander requires
 * child_process (for executable subcommands, which loopcost has none of), and with it net and dgram, ~5 ms.
 * They load on first use: the module is a proxy that requires the real one when a property is read.
 */
const LAZY_BUILTINS = new Set(['node:child_process']);
function lazyModule(path) {
  return `let real;
const load = () => (real ??= nodeRequire(${JSON.stringify(path)}));
module.exports = new Proxy({}, {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => { const d = Reflect.getOwnPropertyDescriptor(load(), key); return d && { ...d, configurable: true }; },
});`;
}

/** Rewrites a dist file's `import.meta.url` and `createRequire(import.meta.url)(…)` (see the header). */
function rewriteDistFile(file, text) {
  const ownUrl = `new URL(${JSON.stringify(relative(dist, file).split('\\').join('/'))}, distUrl).href`;
  return text.replaceAll('createRequire(import.meta.url)(', 'require(').replaceAll('import.meta.url', ownUrl);
}

/**
 * A built-in imported by ES modules (`import { readFileSync } from 'node:fs'`), as an ES module of its own:
 * each of its data properties (as this build's Node has them) one export, the module itself the default.
 * As CommonJS, every importing module would copy all its properties (esbuild's interop: `node:fs` ~100
 * properties, 17 copies in the actions script, each loop compiled in the background too). Accessors
 * (`fs.promises`) are left out: reading one would load what it guards.
 */
function builtinAsEsm(path) {
  const real = createRequire(import.meta.url)(path);
  const names = Object.entries(Object.getOwnPropertyDescriptors(real))
    .filter(([name, descriptor]) => !('get' in descriptor) && /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default')
    .map(([name]) => name);
  return `const real = nodeRequire(${JSON.stringify(path)});\nexport default real;\nexport const { ${names.join(', ')} } = real;\n`;
}


const runtimeRequire = {
  name: 'runtime-require',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.namespace.startsWith('runtime') || !isRuntime(args.path)) return undefined;
      const esm = args.kind !== 'require-call' && isBuiltin(args.path) && !LAZY_BUILTINS.has(args.path);
      return { path: args.path, namespace: esm ? 'runtime-esm' : 'runtime' };
    });
    build.onLoad({ filter: /.*/, namespace: 'runtime-esm' }, (args) => ({ contents: builtinAsEsm(args.path), loader: 'js' }));
    build.onLoad({ filter: /.*/, namespace: 'runtime' }, (args) => ({ contents: LAZY_BUILTINS.has(args.path) ? lazyModule(args.path) : `module.exports = nodeRequire(${JSON.stringify(args.path)});`, loader: 'js' }));
    build.onLoad({ filter: /\.js$/ }, (args) => (args.path.startsWith(dist) ? { contents: rewriteDistFile(args.path, readFileSync(args.path, 'utf8')), loader: 'js' } : undefined));
  },
};

/**
 * zod's `locales` namespace re-exports all ~45 message locales (~200 KB of the bundle, each evaluated at
 * start); loopcost reports zod issues in English only (src/scenario/schema.ts, errors by path and code),
 * so the namespace holds `en` alone. The English locale zod configures by default is untouched.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /node_modules\/zod\//.test(args.importer) ? { path: resolve(dirname(args.importer), args.path), namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/** `node_modules/@scope/name/lib/x.js` → `@scope/name`. */
function packageName(path) {
  const parts = path.split('/');
  return parts.slice(1, parts[1].startsWith('@') ? 3 : 2).join('/');
}

/**
 * The hashes of the code a compiled cache entry's key and a runs cache entry's key name (src/cache/compilerCode.ts),
 * of dist/ as it is bundled: defined in every bundle, so a start of the CLI reads and hashes no file for them
 * (~25–45 ms of a warm `--cache-dir` start). Taken before the bundles are built and again before each is
 * written: dist/ changed in between (another build) fails the build rather than name code a bundle does not hold.
 */
async function codeHashes() {
  const { codeHashOf, IMPORTER_FOLDERS } = await import(new URL('../dist/cache/compilerCode.js', import.meta.url).href);
  return JSON.stringify({ compiler: codeHashOf(dist), importer: codeHashOf(dist, IMPORTER_FOLDERS) });
}
/** codeHashes() as the bundles are built (bundleCli takes them first). */
let bundledCodeHashes;

/** esbuild's options for one script from `entry` (dist-relative imports), before its plugins of the pair. */
const buildOptions = (name, entry, plugins) => ({
  stdin: { contents: entry, resolveDir: dist, sourcefile: `${name}-entry.js` },
  define: { LOOPCOST_BUNDLED_CODE_HASHES: bundledCodeHashes },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  write: false,
  metafile: true,
  legalComments: 'none',
  // Whitespace and comments out, non-ASCII escaped (bin/loadCli.js reads the script as latin1): with zod's
  // locales out, 2.2 → 1.4 MB; a start reads the whole script before V8 takes its code cache, and took
  // ~54 ms for that and the cache, ~31 ms after (README, Development). Names are kept (stacks).
  minifyWhitespace: true,
  charset: 'ascii',
  logLevel: 'warning',
  plugins: [runtimeRequire, zodEnglishOnly, ...plugins],
});

/**
 * Writes dist/NAME.js (the code as one async function of `(nodeRequire, distUrl, exported, linked)`) and its
 * manifest dist/NAME.json: the build id, the dist files' hashes, the packages.
 */
async function writeBundle({ name, title, buildId }, { code, metafile }) {
  if ((await codeHashes()) !== bundledCodeHashes) throw new Error(`bundle: dist/ changed while ${name} was bundled (another build?): build again`);
  const script = `// loopcost ${title} ${buildId} (scripts/bundle-cli.mjs; do not edit)\n(async function loopcostBundle(nodeRequire, distUrl, exported, linked) {\n${code}})\n`;
  writeFileSync(resolve(dist, `${name}.js`), script);
  const inputs = Object.keys(metafile.inputs).filter((path) => !/^(runtime|runtime-esm|command-line-module):/.test(path));
  const hashes = Object.fromEntries(
    inputs
      .filter((path) => path.startsWith('dist/') && !path.endsWith('-entry.js'))
      .sort()
      .map((path) => [path, createHash('sha256').update(readFileSync(resolve(root, path))).digest('hex')]),
  );
  const packages = [...new Set(inputs.filter((path) => path.startsWith('node_modules/')).map(packageName))].sort();
  writeFileSync(resolve(dist, `${name}.json`), `${JSON.stringify({ buildId, distFiles: hashes, packages }, null, 1)}\n`);
  return { name, buildId, bytes: Buffer.byteLength(script), packages };
}

async function build(name, entry, plugins) {
  const result = await esbuild.build(buildOptions(name, entry, plugins));
  // LOOPCOST_BUNDLE_ANALYZE=1 node scripts/bundle-cli.mjs: what takes the space, by input file.
  if (process.env.LOOPCOST_BUNDLE_ANALYZE) console.log(name, await esbuild.analyzeMetafile(result.metafile));
  return { code: result.outputFiles[0].text, metafile: result.metafile };
}

/**
 * The CLI's two linked scripts (scripts/bundle-link.mjs): the command line is built once to learn its
 * modules, the actions sharing those, then the command line again, exporting the shared ones. One build
 * id names both (bin/loadCli.js refuses a pair from two builds) and ties each code cache to its script
 * (V8 checks only the source's length).
 */
async function bundleCliPair(buildId) {
  const first = actionsOutOfCommandLine(dist);
  const probe = await build('cli-bundle', commandLineEntry([]), [first.plugin]);
  const commandLineFiles = distModulesOf(probe.metafile);
  const link = commandLineModulesShared(dist, commandLineFiles);
  const actions = await build('cli-actions-bundle', actionsEntry(first.actions), [link.plugin]);
  const final = actionsOutOfCommandLine(dist);
  const commandLine = await build('cli-bundle', commandLineEntry(link.shared), [final.plugin]);
  if (distModulesOf(commandLine.metafile).size !== commandLineFiles.size) throw new Error('bundle: the command line changed when it exported the shared modules');
  const made = [
    await writeBundle({ name: 'cli-bundle', title: 'CLI bundle', buildId }, { ...commandLine, code: linkActionImports(commandLine.code) }),
    await writeBundle({ name: 'cli-actions-bundle', title: 'CLI actions bundle', buildId }, actions),
  ];
  const twice = made[0].packages.filter((name) => made[1].packages.includes(name));
  if (twice.length > 0) throw new Error(`bundle: ${twice.join(', ')} in both the command line and the actions (two instances): share it or keep it to one side`);
  return made;
}

/** The bundles the build writes: the CLI's pair (bin/loopcost.js) and a sweep worker thread's work (bin/sweepWorker.js). */
export async function bundleCli() {
  bundledCodeHashes = await codeHashes();
  const cli = await bundleCliPair(randomUUID());
  const worker = await build('sweep-worker-bundle', "import { runSweepWorker } from './cli/actions/sweepWorkerRun.js';\nexported.runSweepWorker = runSweepWorker;\n", []);
  return [...cli, await writeBundle({ name: 'sweep-worker-bundle', title: 'sweep worker bundle', buildId: randomUUID() }, worker)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { name, bytes } of await bundleCli()) console.error(`bundle: dist/${name}.js (${(bytes / 1024).toFixed(0)} KB)`);
}
