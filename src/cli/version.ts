/** loopcost's version, from package.json (two levels up from both src/cli and dist/cli), so it cannot drift. */
import { readFileSync } from 'node:fs';

export const LOOPCOST_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
