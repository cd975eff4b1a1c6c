/**
 * The library's entry points that threw a TypeError on a null or wrong-typed argument (hostile-input
 * review D) refuse it as a UserError naming the argument (`<parseScenario arguments>` field `text`), each
 * checked at the entry point's top (options/arguments.ts, entryArguments.ts, textArguments.ts); a valid call
 * is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { checkRuns, checkScenario } from '../../src/check/run.js';
import type { CheckInput } from '../../src/check/inputs.js';
import { loadCheckInputs } from '../../src/check/inputs.js';
import { parseBaseline, parseTolerance } from '../../src/check/baselineFile.js';
import { main } from '../../src/cli/main.js';
import { FULL_HISTORY, parseContextSpec } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';
import { mergeSweeps } from '../../src/fast/sweepMerge.js';
import { detectFormat } from '../../src/import/formats.js';
import { importText } from '../../src/import/importText.js';
import { canonicalJson } from '../../src/index.js';
import { compareCurves } from '../../src/replay/curve.js';
import { checkSummaryTrigger, resolveTracePricing, summaryPricingOf } from '../../src/replay/replay.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { generateTraces } from '../../src/scenario/generate.js';
import { parseAnyScenario, parseScenario } from '../../src/scenario/load.js';
import { scenarioSettings } from '../../src/scenario/settings.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { tinyHealthyScenarioText } from '../synthetic/tinyScenario.js';
import { distinctSteps, MINI, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

const RUN = trace(distinctSteps(3), { model: 'mini' });
const TEXT = tinyHealthyScenarioText({ name: 'tiny', steps: 3, outputTokens: 20, toolResultTokens: 100 }).replace('model: tiny', 'model: mini');
const SCENARIO = parseScenario(TEXT, 'tiny.yaml');
const SPEC = { model: 'mini', systemTokens: 100, outputTokens: 10, toolTokens: 20, steps: 3 };
const io = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() };
const bad = <T,>(value: unknown) => value as T;

function checkInput(): CheckInput {
  const scenario = parseAnyScenario(TEXT, 'tiny.yaml');
  const settings = scenarioSettings(scenario, {});
  return { scenario, settings, traceStrategy: settings.strategy, traceFiles: [] } as unknown as CheckInput;
}

/** Entry point, the call with one bad argument, the file and field the refusal names. */
const CASES: [string, () => unknown, string, string | undefined][] = [
  ['checkScenario', () => checkScenario(bad(null), [], MINI_TABLE), '<checkScenario arguments>', 'input'],
  ['checkScenario', () => checkScenario(checkInput(), bad([null]), MINI_TABLE), '<checkScenario arguments>', 'traces[0]'],
  ['checkRuns', () => checkRuns(bad(null), [], MINI_TABLE), '<checkRuns arguments>', 'input'],
  ['checkRuns', () => checkRuns(checkInput(), bad(null), MINI_TABLE), '<checkRuns arguments>', 'traces'],
  ['checkRuns', () => checkRuns(checkInput(), [], bad(null)), '<checkRuns arguments>', 'prices'],
  ['loadCheckInputs', () => loadCheckInputs(bad(null), {}), '<loadCheckInputs arguments>', 'scenarioFiles'],
  ['loadCheckInputs', () => loadCheckInputs(bad([5]), {}), '<loadCheckInputs arguments>', 'scenarioFiles[0]'],
  ['loadCheckInputs', () => loadCheckInputs(['scenarios/weekly-report.yaml'], bad(null)), '<loadCheckInputs arguments>', 'overrides'],
  ['compareCurves', () => compareCurves(bad(null), [], MINI_TABLE), '<compareCurves arguments>', 'spec'],
  ['compareCurves', () => compareCurves(SPEC, bad(null), MINI_TABLE), '<compareCurves arguments>', 'strategies'],
  ['compareCurves', () => compareCurves(SPEC, bad([null]), MINI_TABLE), '<compareCurves arguments>', 'strategies[0]'],
  ['compareCurves', () => compareCurves(SPEC, [], bad(null)), '<compareCurves arguments>', 'prices'],
  ['generateTraces', () => generateTraces(bad(null), { prices: MINI_TABLE }), '<generateTraces arguments>', 'scenario'],
  ['generateTraces', () => generateTraces(SCENARIO, bad(null)), '<generateTraces options>', undefined],
  ['generateTraces', () => generateTraces(SCENARIO, bad({})), '<generateTraces options>', 'prices'],
  ['resolveTracePricing', () => resolveTracePricing(bad(null), { prices: MINI_TABLE }), '<resolveTracePricing arguments>', 'trace'],
  ['resolveTracePricing', () => resolveTracePricing(RUN, bad(null)), '<resolveTracePricing arguments>', 'options'],
  ['resolveTracePricing', () => resolveTracePricing(RUN, bad({})), '<resolveTracePricing arguments>', 'options.prices'],
  ['summaryPricingOf', () => summaryPricingOf(bad(null), MINI_TABLE), '<summaryPricingOf arguments>', 'strategy'],
  ['summaryPricingOf', () => summaryPricingOf(parseContextSpec('summary:trigger=1000,keep=2,tokens=100,model=mini'), bad(null)), '<summaryPricingOf arguments>', 'prices'],
  ['checkSummaryTrigger', () => checkSummaryTrigger(bad(null)), '<checkSummaryTrigger arguments>', 'run'],
  ['checkSummaryTrigger', () => checkSummaryTrigger(bad({ strategy: FULL_HISTORY, brakes: {} })), '<checkSummaryTrigger arguments>', 'run.pricing'],
  ['mergeSweeps', () => mergeSweeps(bad(null)), '<mergeSweeps arguments>', 'parts'],
  ['mergeSweeps', () => mergeSweeps(bad([null])), '<mergeSweeps arguments>', 'parts[0]'],
  ['mergeSweeps', () => mergeSweeps([]), '<mergeSweeps arguments>', 'parts'],
  ['fitScenario', () => fitScenario(bad(null), () => MINI), '<fitScenario arguments>', 'traces'],
  ['fitScenario', () => fitScenario([RUN], bad(null)), '<fitScenario arguments>', 'pricing'],
  ['parseNativeTraces', () => parseNativeTraces(bad(null), 'r.jsonl'), '<parseNativeTraces arguments>', 'content'],
  ['parseNativeTraces', () => parseNativeTraces('', bad(5)), '<parseNativeTraces arguments>', 'file'],
  ['writeNativeTraces', () => writeNativeTraces(bad(null)), '<writeNativeTraces arguments>', 'traces'],
  ['writeNativeTraces', () => writeNativeTraces(bad([{}])), '<writeNativeTraces arguments>', 'traces[0]'],
  ['importText', () => importText(bad(null), 'r.jsonl'), '<importText arguments>', 'text'],
  ['importText', () => importText('{}', 'r.json', bad(5)), '<importText arguments>', 'format'],
  ['detectFormat', () => detectFormat(bad(null), 'r.jsonl'), '<detectFormat arguments>', 'text'],
  ['parseScenario', () => parseScenario(bad(null), 's.yaml'), '<parseScenario arguments>', 'text'],
  ['parseAnyScenario', () => parseAnyScenario(bad({}), 's.yaml'), '<parseAnyScenario arguments>', 'text'],
  ['parseBaseline', () => parseBaseline(bad(null), 'b.json'), '<parseBaseline arguments>', 'text'],
  ['parseTolerance', () => parseTolerance(bad(null)), '<parseTolerance arguments>', 'text'],
  ['canonicalJson', () => canonicalJson((() => { const a: Record<string, unknown> = {}; a.a = a; return a; })()), '<canonicalJson arguments>', 'value'],
];

describe('a wrong argument is refused at the entry point, naming it', () => {
  it.each(CASES)('%s', (_, call, file, field) => {
    const issue = userErrorOf(call).issues[0]!;
    expect([issue.file, issue.field]).toEqual([file, field]);
    expect(issue.hint).toBeTruthy();
  });

  it('main: its argv and io, as a rejected promise', async () => {
    for (const [argv, given, field] of [[null, io, 'argv'], [['--version'], null, 'io'], [[5], io, 'argv[0]']] as const) {
      const error = await main(bad(argv), bad(given)).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as UserError).issues[0]).toMatchObject({ file: '<main arguments>', field });
    }
  });
});

describe('a valid call is unchanged', () => {
  it('the same results', async () => {
    expect(parseTolerance('5%')).toBe(0.05);
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
    expect(resolveTracePricing(RUN, { prices: MINI_TABLE })).toEqual(MINI);
    expect(summaryPricingOf(FULL_HISTORY, MINI_TABLE)).toBeUndefined();
    expect(writeNativeTraces([RUN]).split('\n')).toHaveLength(6);
    expect([...generateTraces(SCENARIO, { prices: MINI_TABLE, overrides: { runs: 2 } })]).toHaveLength(2);
    expect(fitScenario([RUN, RUN], () => MINI).scenario.population).toBeDefined();
    let said = '';
    expect(await main(['--version'], { ...io, stdout: (text: string) => void (said += text) })).toBe(0);
    expect(said).toMatch(/^\d+\.\d+\.\d+/);
  });
});
