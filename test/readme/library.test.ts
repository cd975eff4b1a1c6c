/**
 * The library is usable from the README alone: every ```ts block of the README, and the snippets below
 * (the one-trace replay the README's Library text shows, partial brake settings at every entry point
 * that takes brakes), type-check against the BUILT package (`dist/*.d.ts`, as a user imports
 * 'loopcost') under a strict user configuration with no @types/node (lib ES2022 + DOM), then the
 * replay snippet runs. In the same program (one compile of the package's declarations), openAIChatModel
 * takes a client of the user's own copy of the `openai` SDK (another class, with private fields), and still
 * refuses one that cannot create chat completions. Needs `npm run build` (as the CLI tests do).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Names a README block uses without defining them (a user's own code). */
const PRELUDE = 'declare function execPython(code: string): string;\n';

/** The README's one-trace replay (Library): load a trace file and the prices, replay, read the stop and cost. */
export const REPLAY_ONE_TRACE = `import { replayTrace, loadTraceFile, loadPriceTable, picoToUsdString, usdToPico, FULL_HISTORY } from 'loopcost';

const [trace] = await loadTraceFile('scenarios/long-exploration.jsonl');  // the file's runs, one Trace each
const prices = loadPriceTable();                                         // bundled prices; { pricesFile } for a LiteLLM file
const r = replayTrace(trace!, { brakes: { maxSteps: 5, maxCostPico: usdToPico(0.5) }, strategy: FULL_HISTORY, prices });
console.log(r.stopReason, r.stopDetail, r.steps, \`$\${picoToUsdString(r.costPico)}\`);
`;

/** Partial brake settings where brakes are taken; a wrong type is still refused by the compiler. */
const PARTIAL_BRAKES = `import { replayTrace, replayTree, runAgentLoop, runAgentTree, runScenario, brakeConfig, loadScenarioFile, loadPriceTable, defineSubagentTool, FULL_HISTORY, NO_BRAKES, REFERENCE_PRESET, type BrakeConfig, type BrakeSettings, type LiveAgent, type Model, type Trace } from 'loopcost';

declare const trace: Trace;
declare const model: Model;
const prices = loadPriceTable();
const settings: BrakeSettings = { maxSteps: 5 };
const full: BrakeConfig = brakeConfig(settings);
const spread: BrakeConfig = { ...NO_BRAKES, maxSteps: 5 };
replayTrace(trace, { brakes: { maxSteps: 5 }, strategy: FULL_HISTORY, prices });
replayTrace(trace, { brakes: REFERENCE_PRESET, strategy: FULL_HISTORY, prices });
replayTree([trace], { brakes: { maxCostPico: 2_000_000_000_000 }, subagentLimits: { maxSteps: 40 }, strategy: FULL_HISTORY, prices });
runScenario(loadScenarioFile('s.yaml'), { prices, brakes: { maxRepeat: 3 } });
const scenarioModel: string = loadScenarioFile('s.yaml').model;
const sub = defineSubagentTool({ name: 'research', description: '', parameters: {}, agent: () => ({ agentId: 'r', model, context: { system: '', goal: '' }, brakes: { maxRepeat: 2 } }) });
declare const root: LiveAgent;
runAgentTree(root, { brakes: { maxSteps: 40 }, strategy: FULL_HISTORY, cache: 'off', pricing: prices.resolve('gpt-4o-mini') });
await runAgentLoop({ model, tools: [sub], brakes: { maxSteps: 5 }, context: { system: '', goal: '' }, pricing: prices.resolve('gpt-4o-mini') });
// @ts-expect-error a count is a number
replayTrace(trace, { brakes: { maxSteps: '5' }, strategy: FULL_HISTORY, prices });
// @ts-expect-error a mode is one of its names
replayTrace(trace, { brakes: { repeatMode: 'cycles' }, strategy: FULL_HISTORY, prices });
export { full, spread, scenarioModel };
`;

/** A client of the user's own SDK copy (another class, private fields) as openAIChatModel's `client`; one that cannot create completions refused. */
const OWN_SDK_CLIENT = `import { openAIChatModel } from 'loopcost';
class OwnOpenAI {
  #apiKey = 'k';
  baseURL = 'http://127.0.0.1:8787/v1';
  timeout = 60_000;
  chat = { completions: { create: (body: { model: string }, options?: { headers?: HeadersInit; signal?: AbortSignal | null }) => ({ asResponse: async () => new Response(this.#apiKey + body.model + String(options?.signal)) }) } };
}
openAIChatModel({ model: 'gpt-4o-mini', client: new OwnOpenAI() });
// @ts-expect-error a client must create chat completions
openAIChatModel({ model: 'gpt-4o-mini', client: { baseURL: 'http://x' } });
`;

/** The ```ts blocks of the README. */
function readmeTsBlocks(readme: string): string[] {
  return [...readme.matchAll(/^```ts\s*\n([\s\S]*?)^```\s*$/gm)].map((m) => m[1]!);
}

/** A user's project beside the repository: `loopcost` resolves to it (package.json types: dist/index.d.ts). */
function userProject(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'loopcost-lib-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(resolve('.'), join(dir, 'node_modules', 'loopcost'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Diagnostics of a strict compile without @types/node, each as `file(line): message`. */
function typeErrors(dir: string, names: string[]): string[] {
  const program = ts.createProgram(
    names.map((name) => join(dir, name)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      // TypeScript's own lib files (lib.dom.d.ts: ~1 s of CPU) are the compiler's, not the package's: not checked.
      skipDefaultLibCheck: true,
      noEmit: true,
    },
  );
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName.replace(dir, '.')}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('the library from the README', () => {
  const blocks = readmeTsBlocks(readFileSync('README.md', 'utf8'));
  const files: Record<string, string> = { 'replay-one.ts': REPLAY_ONE_TRACE, 'partial-brakes.ts': PARTIAL_BRAKES, 'own-sdk-client.ts': OWN_SDK_CLIENT };
  blocks.forEach((block, i) => (files[`readme-${i + 1}.ts`] = `${PRELUDE}${block}\nexport {};\n`));
  const dir = userProject(files);
  // One program for every file (each test reads its files' diagnostics): the declarations compiled once.
  let errors: string[] | undefined;
  const errorsOf = (prefix: (name: string) => boolean) => (errors ??= typeErrors(dir, Object.keys(files))).filter((error) => prefix(error));
  const inClientFile = (error: string) => error.startsWith('./own-sdk-client.ts(');

  it('every README ts block, the one-trace replay and partial brakes type-check against dist without @types/node', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    expect(errorsOf((error) => !inClientFile(error))).toEqual([]);
  }, 120_000);

  it("openAIChatModel takes a client of the user's own SDK copy (another class, private fields), and still refuses one that cannot create completions", () => {
    expect(errorsOf(inClientFile)).toEqual([]);
  }, 120_000);

  it('the one-trace replay runs and prints the stop and cost', () => {
    const js = ts.transpileModule(REPLAY_ONE_TRACE, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    writeFileSync(join(dir, 'replay-one.mjs'), js.replace("'scenarios/", `'${resolve('scenarios')}/`));
    const run = spawnSync(process.execPath, [join(dir, 'replay-one.mjs')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^max_steps \S.* 5 \$0\.\d+\n$/);
  }, 60_000);
});
