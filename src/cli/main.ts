/**
 * The command line: parses flags, calls the library, renders. Returns an exit code; only bin/ exits.
 *   0  the job ran (a brake firing is a result)
 *   2  bad input or usage: one message naming the place, no stack trace, no output file
 *   1  an internal error (a bug: the stack is printed)
 */
import { Command, CommanderError, Option } from 'commander';
import { sanitizeForTerminal, UserError } from '../errors.js';
import { BYTES_PER_MB, DEFAULT_READ_LIMITS } from '../io/limits.js';
import {
  brakesForRun,
  brakesFromFlags,
  latencyFromSpec,
  nonNegativeInt,
  nonNegativeNumber,
  readOptionsFromFlags,
  positiveInt,
  priceOptionsFromFlags,
  RECORDED_PRESET,
  strategyFromFlags,
  type BrakeFlags,
  type ContextFlags,
  type PriceFlags,
  type ReadFlags,
} from './parseFlags.js';
import { recordedBrakes } from '../replay/whatif.js';
import type { Trace } from '../trace/types.js';
import { runCurve } from './commands/curve.js';
import { runImport } from './commands/import.js';
import { runPrices } from './commands/prices.js';
import { runReplay } from './commands/replay.js';
import { runWhatIf } from './commands/whatif.js';
import { runCompare } from './commands/compare.js';
import type { CliIO } from './io.js';
import { REPORT_FORMATS, type ReportFormat } from '../report/render.js';
import { LOOPCOST_VERSION } from '../report/replayReport.js';

function addContextOptions(command: Command): Command {
  return command
    .option('--context <strategy>', "context strategy: 'full' or 'window:K'", 'full')
    .option('--tool-result-cap <tokens>', 'truncate each tool result to this many tokens')
    .option('--cache <mode>', 'prompt caching: on | off (default: as recorded for recorded traces, off for synthetic)');
}

function addPriceOptions(command: Command): Command {
  return command
    .option('--prices <file>', 'LiteLLM model_prices_and_context_window.json to use instead of the bundled table')
    .option('--prices-as-of <YYYY-MM-DD>', "read the bundled table's dated prices as of this day (default: the latest), e.g. for runs made before a price change");
}

function addBrakeOptions(command: Command): Command {
  return command
    .option('--preset <name>', "brake preset: 'reference' (12 steps, $0.50, 120 s, repeat 3 total), 'recorded' (each run's own recorded limits) or 'none'")
    .option('--max-steps <n>', 'stop before a call once this many steps were taken')
    .option('--max-cost <usd>', 'budget in USD')
    .option('--budget-mode <mode>', 'check (stop once spent ≥ budget) | predict (refuse a call that would cross it)')
    .option('--timeout <seconds>', 'virtual-time limit')
    .option('--max-repeat <n>', 'an action may be seen n times; the next identical one stops the run')
    .option('--repeat-mode <mode>', 'total | consecutive | cycle')
    .option('--max-same-error <n>', 'stop when the same tool fails with the same error n times')
    .option('--same-error-mode <mode>', 'consecutive | total')
    .option('--max-tokens <n>', 'input + output token cap over the run')
    .option('--max-backtracks <n>', 'backtracks allowed')
    .option('--context-window <n|model>', "stop before a prompt larger than n tokens ('model': the model's window)")
    .addOption(latencyModelOption());
}

function latencyModelOption(): Option {
  return new Option('--latency-model <spec>', 'virtual time for calls and tools a trace has no latency for: call=MS,input-token=MS,output-token=MS,tool=MS');
}

/** How inputs are read: size limits, and whether bad files are skipped. */
function addInputOptions(command: Command): Command {
  return command
    .option('--max-input-mb <mb>', `most one input file may hold once decompressed, in MB (default: ${DEFAULT_READ_LIMITS.maxInputBytes / BYTES_PER_MB})`)
    .option('--max-line-mb <mb>', `most one JSONL line, or one whole-document file, may hold, in MB (default: ${DEFAULT_READ_LIMITS.maxLineBytes / BYTES_PER_MB})`)
    .option('--skip-bad', 'leave out input files with problems (listed on stderr) instead of failing');
}

function formatOption(allowed: readonly string[]): Option {
  return new Option('--format <format>', 'output format').choices(allowed as string[]).default('table');
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  let exitCode = 0;
  const program = new Command();
  program
    .name('loopcost')
    .description('What will your LLM agent loop cost, and do its brakes hold?')
    .version(LOOPCOST_VERSION)
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      outputError: () => undefined,
    });

  const replay = program
    .command('replay')
    .description('replay traces (files, directories, globs; any supported format, .gz too) through the brakes')
    .argument('<inputs...>', 'trace files, directories or globs')
    .addOption(formatOption(REPORT_FORMATS))
    .option('--model <model>', 're-price every run as if made on this model')
    .option('--out <file>', 'write the report here (atomically) instead of stdout')
    .option('--report-dir <dir>', 'write json, csv, table, chart and per-step csv reports into this directory')
    .option('--per-step', "every model call's tokens (cached included) and cost: in JSON per run, in CSV one row per call");
  addInputOptions(addBrakeOptions(addPriceOptions(addContextOptions(replay)))).action(async (inputs: string[], opts: BrakeFlags & ContextFlags & PriceFlags & ReadFlags & Record<string, string | undefined>) => {
    const brakes = brakesFromFlags(opts);
    exitCode = await runReplay(
      {
        inputs,
        brakes,
        ...(opts.preset === RECORDED_PRESET ? { brakesFor: (trace: Trace) => brakesForRun(opts, recordedBrakes(trace)) } : {}),
        strategy: strategyFromFlags(opts),
        format: opts.format as ReportFormat,
        ...(opts.model === undefined ? {} : { model: opts.model }),
        priceOptions: priceOptionsFromFlags(opts),
        ...(opts.out === undefined ? {} : { out: opts.out }),
        ...(opts.reportDir === undefined ? {} : { reportDir: opts.reportDir }),
        perStep: opts.perStep === (true as unknown),
        ...(opts.latencyModel === undefined ? {} : { latency: latencyFromSpec(opts.latencyModel) }),
        read: readOptionsFromFlags(opts),
      },
      io,
    );
  });

  const curve = program
    .command('curve')
    .description('per-step token and cost growth of a loop with constant step sizes')
    .requiredOption('--model <model>', 'model to price')
    .requiredOption('--system-tokens <n>', 'system prompt tokens')
    .option('--goal-tokens <n>', 'goal / task tokens', '0')
    .requiredOption('--output-tokens <n>', 'output tokens per step')
    .requiredOption('--tool-tokens <n>', 'tool-result tokens per step')
    .requiredOption('--steps <n>', 'number of steps')
    .addOption(formatOption(['table', 'csv', 'json']))
    .option('--out <file>', 'write here (atomically) instead of stdout');
  addPriceOptions(addContextOptions(curve)).action((opts: ContextFlags & PriceFlags & Record<string, string>) => {
    exitCode = runCurve(
      {
        spec: {
          model: opts.model!,
          systemTokens: nonNegativeInt('--system-tokens', opts.systemTokens!),
          goalTokens: nonNegativeInt('--goal-tokens', opts.goalTokens!),
          outputTokens: nonNegativeInt('--output-tokens', opts.outputTokens!),
          toolTokens: nonNegativeInt('--tool-tokens', opts.toolTokens!),
          steps: positiveInt('--steps', opts.steps!),
        },
        strategy: strategyFromFlags(opts),
        format: opts.format as 'table' | 'csv' | 'json',
        priceOptions: priceOptionsFromFlags(opts),
        ...(opts.out === undefined ? {} : { out: opts.out }),
      },
      io,
    );
  });

  const pricesCommand = program
    .command('prices')
    .description('what a model costs and where the price came from (no model: list models)')
    .argument('[model]')
    .option('--json', 'JSON output');
  addPriceOptions(pricesCommand).action((model: string | undefined, opts: PriceFlags & { json?: boolean }) => {
    exitCode = runPrices(model, { priceOptions: priceOptionsFromFlags(opts), json: opts.json === true }, io);
  });

  const whatif = program
    .command('whatif')
    .description('what would other brake settings have done to these runs? (baseline: the settings they were recorded with)')
    .argument('<inputs...>', 'trace files, directories or globs')
    .requiredOption('--try <setting>', "a brake setting, e.g. 'max-steps=50' or 'max-repeat=3,repeat-mode=consecutive' (repeatable)", (value: string, previous: string[] = []) => [...previous, value])
    .addOption(formatOption(['table', 'csv', 'json']))
    .option('--model <model>', 're-price every run as if made on this model')
    .option('--out <file>', 'write here (atomically) instead of stdout')
    .addOption(latencyModelOption());
  addInputOptions(addPriceOptions(addContextOptions(whatif))).action(async (inputs: string[], opts: ContextFlags & PriceFlags & ReadFlags & { try: string[] } & Record<string, string | undefined>) => {
    exitCode = await runWhatIf(
      {
        inputs,
        tries: opts.try,
        strategy: strategyFromFlags(opts),
        format: opts.format as 'table' | 'csv' | 'json',
        ...(opts.model === undefined ? {} : { model: opts.model }),
        priceOptions: priceOptionsFromFlags(opts),
        ...(opts.out === undefined ? {} : { out: opts.out }),
        ...(opts.latencyModel === undefined ? {} : { latency: latencyFromSpec(opts.latencyModel) }),
        read: readOptionsFromFlags(opts),
      },
      io,
    );
  });

  const compareCommand = program
    .command('compare')
    .description('replay runs as recorded and compare computed cost and tokens with what the source recorded')
    .argument('<inputs...>', 'trace files, directories or globs')
    .option('--tolerance <relative>', 'relative cost difference still counted as agreement', '1e-6')
    .addOption(formatOption(['table', 'csv', 'json']))
    .option('--out <file>', 'write here (atomically) instead of stdout');
  addInputOptions(addPriceOptions(compareCommand)).action(async (inputs: string[], opts: PriceFlags & ReadFlags & { tolerance: string; format: string; out?: string }) => {
    exitCode = await runCompare(
      {
        inputs,
        tolerance: nonNegativeNumber('--tolerance', opts.tolerance),
        read: readOptionsFromFlags(opts),
        format: opts.format as 'table' | 'csv' | 'json',
        priceOptions: priceOptionsFromFlags(opts),
        ...(opts.out === undefined ? {} : { out: opts.out }),
      },
      io,
    );
  });

  const importCommand = program
    .command('import')
    .description('convert traces of any supported format to native JSONL')
    .argument('<inputs...>', 'trace files, directories or globs')
    .option('--out <file>', 'write here (atomically) instead of stdout');
  addInputOptions(importCommand).action(async (inputs: string[], opts: ReadFlags & { out?: string }) => {
    exitCode = await runImport(inputs, opts.out, io, readOptionsFromFlags(opts));
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return 0;
      io.stderr(`loopcost: ${sanitizeForTerminal(error.message.replace(/^error: /, ''))}\n(run 'loopcost --help' for usage)\n`);
      return 2;
    }
    if (error instanceof UserError) {
      io.stderr(`loopcost: ${error.message}\n`);
      return 2;
    }
    io.stderr(`loopcost: internal error — please report it\n${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
