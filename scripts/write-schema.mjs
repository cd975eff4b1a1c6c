// Regenerates schema/trace-v1.schema.json from the zod definition in src/trace/schema.ts (run after a build).
import { writeFileSync } from 'node:fs';
import { traceJsonSchema } from '../dist/trace/schema.js';

writeFileSync('schema/trace-v1.schema.json', JSON.stringify(traceJsonSchema(), null, 2) + '\n');
