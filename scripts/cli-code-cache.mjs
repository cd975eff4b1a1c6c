// Build step (`npm run build`, after scripts/bundle-cli.mjs): V8's code cache for dist/cli-bundle.js, as
// dist/cli-bundle.cache (`<build id>\n` + cached data). The bundle is compiled and run on the commands a
// start most often serves (`--help`, `--version`, `replay scenarios/`, output discarded) before the cache is
// taken, so it holds the functions those runs compiled, not only the top level. Read by bin/loadCli.js.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileCliBundle, runCliBundle } from '../bin/loadCli.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheFile = resolve(root, 'dist/cli-bundle.cache');

const compiled = compileCliBundle({ useCache: false });
if (compiled === undefined) throw new Error('cli code cache: dist/cli-bundle.js is missing (run scripts/bundle-cli.mjs first)');
const { main } = await runCliBundle(compiled.script);
const quiet = { stdout: () => true, stderr: () => true, cwd: root };
for (const argv of [['--help'], ['--version'], ['replay', '--help'], ['replay', 'scenarios/']]) {
  const code = await main(argv, quiet);
  if (code !== 0) throw new Error(`cli code cache: loopcost ${argv.join(' ')} exited ${code}`);
}
const buildId = /^\/\/ loopcost CLI bundle (\S+)/.exec(compiled.source)?.[1];
const data = compiled.script.createCachedData();
writeFileSync(cacheFile, Buffer.concat([Buffer.from(`${buildId}\n`, 'latin1'), data]));
console.log(`cli code cache: dist/cli-bundle.cache (${(data.length / 1024).toFixed(0)} KB)`);
