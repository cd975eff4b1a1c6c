/**
 * Every settings string a report writes is read back by the command line as the same settings: the
 * brakes (`--try` syntax), the context (`--context`), the tool-result cap (`--tool-result-cap`), the cache,
 * the latency model and the model of a settings line, and the flags a combined label (a sweep's row)
 * is reproduced with, parsed by the commands' own option declarations (src/cli/options.ts, commander)
 * and parsers (src/cli/parseFlags.ts). Seeded: a failure names its seed and path, and reproduces.
 */
import { Command } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { addBrakeOptions, addContextOptions } from '../../src/cli/options.js';
import { brakesFromFlags, brakesFromSpec, latencyFromSpec, RECORDED_PRESET, strategyFromFlags, type BrakeFlags, type ContextFlags } from '../../src/flags/settingsFlags.js';
import { parseContextSpec, type ContextStrategy } from '../../src/context/strategy.js';
import type { LatencyModel } from '../../src/loop/latency.js';
import { usdToPico } from '../../src/money.js';
import { reportSettings, settingsFlags, settingsLine, SETTINGS_SEPARATOR, type SettingsOf } from '../../src/report/settings.js';

const option = <T,>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const count = (min = 1, max = 1_000_000) => fc.integer({ min, max });

/** Brakes a command line can give: a mode only with its brake (else refused), except over recorded limits. */
function brakesArb(recorded: boolean): fc.Arbitrary<BrakeConfig> {
  return fc
    .record({
      maxSteps: option(count()),
      maxCostPico: option(fc.oneof(fc.integer({ min: 1, max: usdToPico(10) }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.constant(Number.MAX_SAFE_INTEGER))),
      budgetMode: fc.constantFrom('check' as const, 'predict' as const),
      maxOutputTokens: option(count()),
      timeoutMs: option(fc.integer({ min: 1, max: 86_400_000 })),
      maxRepeat: option(count(1, 50)),
      repeatMode: fc.constantFrom('total' as const, 'consecutive' as const, 'cycle' as const),
      repeatAction: option(fc.constantFrom('stop' as const, 'skip' as const)),
      maxSkips: option(count(0, 20)),
      skipWarningTokens: option(count(0, 500)),
      maxSameError: option(count(1, 50)),
      sameErrorMode: fc.constantFrom('consecutive' as const, 'total' as const),
      maxTokens: option(count()),
      maxBacktracks: option(count(0, 50)),
      contextWindow: option(fc.oneof(fc.constant('model' as const), count())),
    })
    .map((b) => {
      const brakes: BrakeConfig = { ...NO_BRAKES };
      for (const [key, value] of Object.entries(b)) if (value !== undefined) (brakes as unknown as Record<string, unknown>)[key] = value;
      // Without recorded limits to govern, a mode needs its brake; over them, a mode alone applies to the recorded brake.
      if (brakes.maxCostPico === undefined && !recorded) brakes.budgetMode = 'check';
      if (brakes.maxRepeat === undefined && !recorded) brakes.repeatMode = 'total';
      if (brakes.maxSameError === undefined && !recorded) brakes.sameErrorMode = 'consecutive';
      if (brakes.maxRepeat === undefined && (!recorded || brakes.repeatAction === 'stop')) delete brakes.repeatAction;
      if (brakes.repeatAction !== 'skip') {
        delete brakes.maxSkips;
        delete brakes.skipWarningTokens;
      }
      return brakes;
    });
}

const summaryArb = fc.record({
  trigger: fc.oneof(count(1, 2_000_000).map((n) => ({ triggerTokens: n })), fc.integer({ min: 1, max: 10_000 }).map((n) => ({ triggerPercent: n / 100 }))),
  keepSteps: count(1, 100),
  summaryTokens: count(1, 100_000),
  model: option(fc.constantFrom('gpt-4o-mini', 'claude-3-5-haiku-20241022')),
});

const strategyArb: fc.Arbitrary<ContextStrategy> = fc
  .record({
    kind: fc.constantFrom('full' as const, 'window' as const, 'mask' as const, 'summary' as const, 'hybrid' as const),
    windowSteps: count(1, 1000),
    maskSteps: count(1, 1000),
    placeholderTokens: option(count(0, 100)),
    maskBatchSteps: option(count(1, 50)),
    summary: summaryArb,
    toolResultCap: option(count(0, 100_000)),
    cache: option(fc.constantFrom('on' as const, 'off' as const)),
  })
  .map((s) => {
    const strategy: ContextStrategy = { kind: s.kind };
    if (s.kind === 'window') strategy.windowSteps = s.windowSteps;
    if (s.kind === 'mask' || s.kind === 'hybrid') {
      strategy.maskSteps = s.maskSteps;
      if (s.placeholderTokens !== undefined) strategy.placeholderTokens = s.placeholderTokens;
      if (s.maskBatchSteps !== undefined) strategy.maskBatchSteps = s.maskBatchSteps;
    }
    if (s.kind === 'summary' || s.kind === 'hybrid') {
      const { trigger, model, ...rest } = s.summary;
      strategy.summary = { ...trigger, ...rest, ...(model === undefined ? {} : { model }) };
    }
    if (s.toolResultCap !== undefined) strategy.toolResultCap = s.toolResultCap;
    if (s.cache !== undefined) strategy.cache = s.cache;
    return strategy;
  });

const msArb = fc.oneof(fc.integer({ min: 0, max: 86_400_000 }), fc.integer({ min: 0, max: 100_000 }).map((n) => n / 1000));
const latencyArb: fc.Arbitrary<LatencyModel> = fc.record({ perCallMs: msArb, perInputTokenMs: msArb, perOutputTokenMs: msArb, perToolCallMs: msArb });

const settingsArb: fc.Arbitrary<SettingsOf> = fc.boolean().chain((recorded) =>
  fc
    .record({ brakes: brakesArb(recorded), strategy: strategyArb, latency: option(latencyArb), model: option(fc.constantFrom('gpt-4o', 'openrouter/anthropic/claude-3.5-sonnet', "o'brien model")) })
    .map((s) => ({
      brakes: s.brakes,
      strategy: s.strategy,
      ...(recorded ? { perRunRecordedLimits: true } : {}),
      ...(s.latency === undefined ? {} : { latency: s.latency }),
      ...(s.model === undefined ? {} : { model: s.model }),
    })),
);

/** A POSIX shell's reading of a command line: words split at spaces; single quotes hold anything but a quote; `\\'` a quote. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (ch === '\\') word = (word ?? '') + line[++i];
    else word = (word ?? '') + ch;
  }
  if (word !== undefined) words.push(word);
  return words;
}

type Opts = BrakeFlags & ContextFlags & { latencyModel?: string; model?: string };

/** The flags as `loopcost replay` reads them: its option declarations (commander), then its parsers. */
function parseCommandLine(argv: readonly string[]): SettingsOf {
  const command = new Command('replay').exitOverride().configureOutput({ writeErr: () => {} });
  addBrakeOptions(addContextOptions(command)).option('--model <model>');
  command.parse([...argv], { from: 'user' });
  const opts = command.opts<Opts>();
  return {
    brakes: brakesFromFlags(opts),
    strategy: strategyFromFlags(opts),
    ...(opts.preset === RECORDED_PRESET ? { perRunRecordedLimits: true } : {}),
    ...(opts.latencyModel === undefined ? {} : { latency: latencyFromSpec(opts.latencyModel) }),
    ...(opts.model === undefined ? {} : { model: opts.model }),
  };
}

/** The parts of a settings line (`settings: brakes … · context … · …`) by their label. */
function lineParts(line: string): Map<string, string> {
  const labels = ['brakes', 'context', 'tool-result-cap', 'cache', 'latency', 're-priced as'];
  return new Map(
    line
      .replace(/^settings: /, '')
      .split(SETTINGS_SEPARATOR)
      .map((part) => {
        const label = labels.find((l) => part.startsWith(`${l} `))!;
        return [label, part.slice(label.length + 1)] as const;
      }),
  );
}

describe('settings a report writes read back as the same settings', () => {
  it('the flags of a configuration (settingsFlags), through the command line', () => {
    fc.assert(
      fc.property(settingsArb, (settings) => {
        const flags = settingsFlags(settings);
        expect(parseCommandLine(shellWords(flags))).toEqual(settings);
      }),
      { seed: 20260601, numRuns: 400 },
    );
  });

  it('each part of the settings line, through the flag it names', () => {
    fc.assert(
      fc.property(settingsArb, (settings) => {
        const parts = lineParts(settingsLine(reportSettings(settings)));
        const argv = [
          ...(parts.get('context') === undefined ? [] : ['--context', parts.get('context')!]),
          ...(parts.get('tool-result-cap') === undefined ? [] : ['--tool-result-cap', parts.get('tool-result-cap')!]),
          ...(['on', 'off'].includes(parts.get('cache')!) ? ['--cache', parts.get('cache')!] : []),
          ...(parts.get('latency') === 'as recorded' ? [] : ['--latency-model', parts.get('latency')!]),
          ...(parts.get('re-priced as') === undefined ? [] : ['--model', parts.get('re-priced as')!]),
        ];
        const { brakes: _brakes, perRunRecordedLimits: _recorded, ...rest } = parseCommandLine(argv);
        const { brakes, perRunRecordedLimits, ...expected } = settings;
        expect(rest).toEqual(expected);
        const brakeText = parts.get('brakes')!;
        if (perRunRecordedLimits === true) {
          // Over recorded limits: `preset=recorded,…`, the --preset recorded a replay takes, with each part as its flag.
          expect(brakeText).toMatch(/^preset=recorded(,|$)/);
          expect(settingsFlags({ brakes, perRunRecordedLimits, strategy: { kind: 'full' } })).toBe(`--preset recorded${brakeText.slice('preset=recorded'.length).replace(/(?:^|,)([a-z-]+)=((?:skip|stop)(?:,(?:max-skips|warning)=\d+)*|[^,]+)/g, ' --$1 $2')}`);
        } else if (brakeText === 'none') expect(brakes).toEqual(NO_BRAKES);
        else expect(brakesFromSpec(brakeText)).toEqual(brakes);
      }),
      { seed: 20260602, numRuns: 400 },
    );
  });

  it('a context with a tool-result cap: `--context` takes the context, `--tool-result-cap` the cap', () => {
    const settings = reportSettings({ brakes: NO_BRAKES, strategy: { kind: 'full', toolResultCap: 500 } });
    expect(settings).toMatchObject({ context: 'full', toolResultCap: '500' });
    expect(settingsLine(settings)).toBe('settings: brakes none · context full · tool-result-cap 500 · cache as recorded (synthetic: off) · latency as recorded');
    expect(parseContextSpec(settings.context)).toEqual({ kind: 'full' });
  });

  it('skip options in --try syntax are the --repeat-action value: repeat-action=skip,max-skips=2,warning=10', () => {
    const brakes = brakesFromFlags({ maxRepeat: '2', repeatAction: 'skip,max-skips=2,warning=10' });
    expect(reportSettings({ brakes, strategy: { kind: 'full' } }).brakes).toBe('max-repeat=2,repeat-mode=total,repeat-action=skip,max-skips=2,warning=10');
    expect(brakesFromSpec('max-repeat=2,repeat-action=skip,max-skips=2,warning=10')).toEqual(brakes);
    expect(settingsFlags({ brakes, strategy: { kind: 'full' } })).toBe('--max-repeat 2 --repeat-mode total --repeat-action skip,max-skips=2,warning=10');
    // an option of `stop` is refused as --repeat-action refuses it
    expect(() => brakesFromSpec('max-repeat=2,repeat-action=stop,max-skips=2')).toThrow(/'skip' when max-skips or warning is given/);
  });

  it('--try preset=recorded is refused (it read as no brakes at all)', () => {
    expect(() => brakesFromSpec('preset=recorded,max-steps=3')).toThrow(/baseline every --try is compared with/);
  });
});
