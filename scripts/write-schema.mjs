// Regenerates schema/trace-v1.schema.json and schema/scenario-v1.schema.json from the zod definitions
// in src/trace/schema.ts and src/scenario/schema.ts (run after a build).
import { writeFileSync } from 'node:fs';
import { traceJsonSchema } from '../dist/trace/schema.js';
import { scenarioJsonSchema } from '../dist/scenario/schema.js';

writeFileSync('schema/trace-v1.schema.json', JSON.stringify(traceJsonSchema(), null, 2) + '\n');
writeFileSync('schema/scenario-v1.schema.json', JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
