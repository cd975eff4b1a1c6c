// Writes the bundled @pydantic/genai-prices provider data as JSON Lines beside the compiled price table
// (dist/pricing/genai-prices-data.jsonl; layout in src/pricing/genaiDataFile.ts), tagged with the hash of
// the package file it came from, so the CLI reads the data in milliseconds instead of loading the package's
// 800 KB module, and parses only the providers it prices (src/pricing/genaiData.ts).
// Run by `npm run build` after tsc; also written beside src/pricing/genaiData.ts for the tests. A stale or
// missing copy is ignored at run time (the package is read).
import { writeFileSync } from 'node:fs';
import { GENAI_DATA_FILE, genaiDataCopy } from '../dist/pricing/genaiData.js';
import { formatDataCopy } from '../dist/pricing/genaiDataFile.js';

const text = formatDataCopy(await genaiDataCopy());
writeFileSync(new URL(`../dist/pricing/${GENAI_DATA_FILE}`, import.meta.url), text);
// The same copy beside the TypeScript source (git-ignored), which the tests run: src/pricing/genaiData.ts reads
// only the copy beside itself.
writeFileSync(new URL(`../src/pricing/${GENAI_DATA_FILE}`, import.meta.url), text);
