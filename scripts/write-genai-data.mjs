// Writes the bundled @pydantic/genai-prices provider data as JSON beside the compiled price table
// (dist/pricing/genai-prices-data.json), tagged with the hash of the package file it came from, so the
// CLI reads the data in milliseconds instead of loading the package's 800 KB module (src/pricing/genaiData.ts).
// Run by `npm run build` after tsc; a stale or missing copy is ignored at run time (the package is read).
import { writeFileSync } from 'node:fs';
import { GENAI_DATA_FILE, genaiDataCopy } from '../dist/pricing/genaiData.js';

const target = new URL(`../dist/pricing/${GENAI_DATA_FILE}`, import.meta.url);
writeFileSync(target, JSON.stringify(await genaiDataCopy()));
