// The CLI as two linked scripts (scripts/bundle-cli.mjs builds them, bin/loadCli.js loads them):
// - dist/cli-bundle.js, the command line: commander, each command's options and help, main, errors — all a
//   start needs to print help or the version, or to refuse a flag (~0.1 MB, not the whole 1.4 MB);
// - dist/cli-actions-bundle.js, the commands' work (src/cli/actions/ and everything under them), compiled
//   and run on a command's first action.
// The command modules import their action lazily (`await import('../actions/replay.js')`): in the command-
// line script that import becomes `linked.loadAction("cli/actions/replay.js")`, which loads the actions
// script once and evaluates that action's modules (each still on first use). A module of the command line
// that the actions import too (errors.js: `instanceof UserError` in main must see the actions' errors) is
// not bundled twice: the actions script takes the command line's own instance, `linked.shellModules[path]`.
// `linked` is the bundles' fourth parameter (bin/loadCli.js passes one object to both).
import { dirname, relative, resolve } from 'node:path';

/** An action import in the command-line script, before it is rewritten to `linked.loadAction(…)`. */
const ACTION_SPECIFIER = 'loopcost-action:';

/** `dist/cli/actions/replay.js` → `cli/actions/replay.js` (the key both scripts use). */
const distKey = (dist, file) => relative(dist, file).split('\\').join('/');

/**
 * Command-line side: a command module's `import('../actions/x.js')` left out of the script (recorded in
 * `actions`), rewritten after the build by `linkActionImports`.
 */
export function actionsOutOfCommandLine(dist) {
  const actions = new Set();
  const commandsDir = resolve(dist, 'cli/commands');
  const plugin = {
    name: 'actions-out-of-command-line',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/actions\// }, (args) => {
        if (args.kind !== 'dynamic-import' || dirname(args.importer) !== commandsDir) return undefined;
        const key = distKey(dist, resolve(commandsDir, args.path));
        actions.add(key);
        return { path: `${ACTION_SPECIFIER}${key}`, external: true };
      });
    },
  };
  return { plugin, actions };
}

/** The command-line script with each left-out action import calling `linked.loadAction`; fails loudly if none or some remain. */
export function linkActionImports(code) {
  const marker = `import(${JSON.stringify(ACTION_SPECIFIER).slice(0, -1)}`;
  const linked = code.replaceAll(marker, 'linked.loadAction("');
  if (linked === code || linked.includes(ACTION_SPECIFIER)) throw new Error(`bundle: the action imports were not all rewritten (looked for '${marker}')`);
  return linked;
}

/** The actions script's entry: each action as a lazy import, keyed as the command line asks for it. */
export function actionsEntry(actions) {
  const lines = [...actions].sort().map((key) => `  ${JSON.stringify(key)}: () => import(${JSON.stringify(`./${key}`)}),`);
  return `exported.actions = {\n${lines.join('\n')}\n};\n`;
}

/**
 * Actions side: an import of a module the command-line script holds (`commandLineFiles`, dist keys) reads
 * that script's instance (`linked.shellModules`); the keys asked for are recorded in `shared`.
 */
export function commandLineModulesShared(dist, commandLineFiles) {
  const shared = new Set();
  const plugin = {
    name: 'command-line-modules-shared',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.importer === '' || !args.importer.startsWith(dist)) return undefined;
        const key = distKey(dist, resolve(dirname(args.importer), args.path));
        if (!commandLineFiles.has(key)) return undefined;
        shared.add(key);
        return { path: key, namespace: 'command-line-module' };
      });
      build.onLoad({ filter: /.*/, namespace: 'command-line-module' }, (args) => ({
        contents: `module.exports = linked.shellModules[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
  return { plugin, shared };
}

/** The command-line script's entry: main, and the modules the actions share, by key. */
export function commandLineEntry(shared) {
  const keys = [...shared].sort();
  const imports = keys.map((key, i) => `import * as shared${i} from ${JSON.stringify(`./${key}`)};`);
  const table = keys.map((key, i) => `  ${JSON.stringify(key)}: shared${i},`);
  return `import { main } from './cli/main.js';\n${imports.join('\n')}\nexported.main = main;\nexported.shellModules = {\n${table.join('\n')}\n};\n`;
}

/** The dist keys of a build's project modules (its metafile inputs under dist/). */
export const distModulesOf = (metafile) =>
  new Set(Object.keys(metafile.inputs).filter((path) => path.startsWith('dist/') && !path.endsWith('-entry.js')).map((path) => path.slice('dist/'.length)));
