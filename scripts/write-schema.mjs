// Regenerates schema/trace-v1.schema.json and schema/scenario-v1.schema.json from the zod definitions
// in src/trace/schema.ts and src/scenario/schema.ts (run after a build).
import { writeFileSync } from 'node:fs';
// The library entry first: it loads the modules in the order they are written for (src/scenario/schema.ts and
// issueWords.ts import each other; entered at schema.ts, issueWords.ts would read BEHAVIOUR_NAMES before it is set).
await import('../dist/index.js');
const { traceJsonSchema } = await import('../dist/trace/schema.js');
const { scenarioJsonSchema } = await import('../dist/scenario/schema.js');

writeFileSync('schema/trace-v1.schema.json', JSON.stringify(traceJsonSchema(), null, 2) + '\n');
writeFileSync('schema/scenario-v1.schema.json', JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
