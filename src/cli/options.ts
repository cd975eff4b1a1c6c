/**
 * Options shared by several commands (brakes, context, prices, output) and the helpers every command
 * uses to declare options, so help states each default plainly (`(default: full)`, unquoted) and marks
 * required options, and refuses a one-value flag given twice. Registration only: nothing here parses values (parseFlags.ts does, inside the
 * actions) or imports more than commander's types.
 */
import type { Command, Option } from 'commander';
import { UserError } from '../errors.js';

export const REPORT_FORMATS = ['table', 'csv', 'json', 'chart'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * An option whose help ends with `(default: <what absent means>)`. With `value`, commander applies it;
 * without, the action treats absence as `absent` describes.
 */
export function option(command: Command, flags: string, description: string, absent: string, value?: string): Option {
  const created = command.createOption(flags, description);
  return value === undefined ? created.default(undefined, absent) : created.default(value, absent);
}

/** An option the command cannot run without: marked `(required)` in help, refused when missing. */
export function required(command: Command, flags: string, description: string): Option {
  return command.createOption(flags, `(required) ${description}`).makeOptionMandatory();
}

/**
 * What a command runs, for its help's wording: `runs` (recorded traces and scenario files) or `curve` (one
 * synthetic loop of constant steps: no file of its own settings, nothing recorded).
 */
export type RunsKind = 'runs' | 'curve';

/** `--context` and `--cache` defaults by what a command does with a scenario file's own (a sweep's configurations are the grid and the flags, for every input). */
const CONTEXT_DEFAULTS: Record<RunsKind | 'sweep', { context: string; cache: string }> = {
  runs: { context: "full; for a scenario file's runs, the file's own context.context, else full", cache: "for a scenario file's runs, the file's own context.cache; else as recorded for recorded traces, off for synthetic ones" },
  sweep: { context: "full; for a scenario file's runs, the file's own context.context, else full (a --grid axis gives each configuration its own)", cache: "for a scenario file's runs, the file's own context.cache; else as recorded for recorded traces, off for synthetic ones (a --grid axis gives each configuration its own)" },
  curve: { context: 'full', cache: 'off' },
};

/** `kind` 'sweep': sweep and calibrate, whose configurations take a scenario file's context and cache unless a flag or a grid axis gives them. */
export function addContextOptions(command: Command, kind: RunsKind | 'sweep' = 'runs'): Command {
  const defaults = CONTEXT_DEFAULTS[kind];
  return command
    .addOption(option(command, '--context <strategy>', "full | window:K | mask:M | summary:… | hybrid:…", defaults.context, 'full'))
    .addOption(option(command, '--tool-result-cap <tokens>', 'truncate each tool result to this many tokens', 'no cap'))
    .addOption(option(command, '--cache <mode>', 'prompt caching: on | off', defaults.cache));
}

/**
 * What a command prices, for `--prices-as-of`'s wording: runs (recorded ones have a recording day), one
 * curve, the synthetic runs `generate` writes (none recorded), or a model's prices (`prices`: no run).
 */
export type PricedKind = RunsKind | 'written' | 'model';

const AS_OF_WORDS: Record<PricedKind, { what: string; absent: string }> = {
  runs: { what: ' for every run', absent: "the day each run was recorded, else the table's release day" },
  curve: { what: '', absent: "the table's release day" },
  written: { what: ' for every run written', absent: "the table's release day (synthetic runs have no recording day)" },
  model: { what: '', absent: "the table's release day: the latest prices it knows" },
};

export function addPriceOptions(command: Command, kind: PricedKind = 'runs'): Command {
  const asOf = AS_OF_WORDS[kind];
  return command
    .addOption(option(command, '--prices <file>', "a LiteLLM model_prices_and_context_window.json to use instead of the bundled table (a model it lacks is an error)", 'the bundled @pydantic/genai-prices table'))
    .addOption(option(command, '--prices-override <file>', 'a LiteLLM-format file whose entries override the table field by field (prices, tiers, max_input_tokens as the window); the fields and models it leaves out keep the table\'s (e.g. from loopcost prices derive)', 'none'))
    .addOption(option(command, '--prices-as-of <YYYY-MM-DD>', `read the bundled table's dated prices as of this day${asOf.what}`, asOf.absent));
}

/** `--runs` and `--seed` of the synthetic runs a scenario file makes (flags given override the file); `oneFile`: the command takes one scenario file (generate). */
export function addScenarioOptions(command: Command, oneFile = false): Command {
  return command
    .addOption(option(command, '--runs <n>', oneFile ? 'synthetic runs to write' : 'synthetic runs per scenario file', "the file's runs, else 100"))
    .addOption(option(command, '--seed <n>', 'seed of the synthetic runs', "the file's seed, else 1"));
}

/** Whether the user gave an option (not its default): only flags given override a scenario file. */
export function givenOptions(command: Command): (key: string) => boolean {
  return (key) => {
    const source = command.getOptionValueSource(key);
    return source !== undefined && source !== 'default';
  };
}

export function latencyModelOption(command: Command, kind: RunsKind = 'runs'): Option {
  const what = kind === 'curve' ? 'virtual time for the calls and tools' : 'virtual time for calls and tools a trace has no latency for';
  return option(command, '--latency-model <spec>', `${what}: call=MS,input-token=MS,output-token=MS,tool=MS`, 'they take no time');
}

export function addBrakeOptions(command: Command, kind: RunsKind = 'runs'): Command {
  const recorded = kind === 'curve' ? '' : "'recorded' (each run's own recorded limits), ";
  return command
    .addOption(option(command, '--preset <name>', `brake preset: 'reference' (12 steps, $0.50, 120 s, repeat 3 total), ${recorded}'none', or another runtime's defaults: openai-agents, langgraph, smolagents, crewai, mini-swe-agent, openhands (docs/presets.md); flags given with it override it`, 'none'))
    .addOption(option(command, '--max-steps <n>', 'stop before a call once this many steps were taken', 'no limit'))
    .addOption(option(command, '--max-cost <usd>', 'budget in USD', 'no budget'))
    .addOption(option(command, '--budget-mode <mode>', 'with --max-cost: check (stop once spent ≥ budget) | predict (refuse a call whose bound would cross it)', 'check'))
    .addOption(option(command, '--max-output-tokens <n>', "the max_tokens a real loop sends: the output part of the predictive bound; under --context-window model it counts against the model's window", '4096'))
    .addOption(option(command, '--timeout <seconds>', 'virtual-time limit', 'no limit'))
    .addOption(option(command, '--max-repeat <n>', 'an action may be seen n times; the next identical one stops the run', 'no limit'))
    .addOption(option(command, '--repeat-mode <mode>', 'with --max-repeat: total | consecutive | cycle', 'total'))
    .addOption(option(command, '--repeat-action <action>', 'with --max-repeat: stop the run, or skip[,max-skips=S][,warning=W] (not executed, a W-token warning observation instead, the step counts; past S skips the run stops)', 'stop'))
    .addOption(option(command, '--max-same-error <n>', 'stop when the same tool fails with the same error n times', 'no limit'))
    .addOption(option(command, '--same-error-mode <mode>', 'with --max-same-error: consecutive | total', 'consecutive'))
    .addOption(option(command, '--max-tokens <n>', 'input + output token cap over the run', 'no cap'))
    .addOption(option(command, '--max-backtracks <n>', 'backtracks allowed', 'no limit'))
    .addOption(option(command, '--context-window <n|model>', "stop before a prompt larger than n tokens ('model': stop before prompt + --max-output-tokens passes the model's window, as a provider refuses it)", 'no limit'))
    .addOption(latencyModelOption(command, kind));
}

/** `--tree` and the per-agent limits (replay, whatif): session trees replayed as one loop under one budget. */
export function addTreeOptions(command: Command): Command {
  return command
    .addOption(option(command, '--tree', 'replay each session tree (an agent and its sub-agents, header.agent) as one loop: the brakes bind the whole tree', 'each run on its own'))
    .addOption(option(command, '--subagent-max-steps <n>', 'with --tree: steps each sub-agent may take (all its parts)', 'no limit'))
    .addOption(option(command, '--subagent-max-cost <usd>', 'with --tree: spend each sub-agent may make, in USD', 'no limit'));
}

/**
 * How trace inputs are read: size limits (defaults as in src/io/limits.ts, which start-up does not load;
 * a test holds them equal) and whether bad files are left out.
 */
export function addInputOptions(command: Command): Command {
  return command
    .addOption(option(command, '--max-input-mb <mb>', 'most one input file may hold once decompressed, in MB', '4096'))
    .addOption(option(command, '--max-line-mb <mb>', 'most one JSONL line, or one whole-document file, may hold, in MB', '128'))
    .addOption(option(command, '--skip-bad', 'leave out input files with problems (listed on stderr) instead of failing', 'fail naming every bad file'))
    .addOption(option(command, '--cache-dir <dir>', 'keep the runs read from each trace file (compiled, for replay, whatif and sweep) in this directory, keyed by the file\'s content, and reuse them on the next run; at most 256 entries and 4 GiB, least recently used evicted', 'off: no cache'));
}

export function formatOption(command: Command, allowed: readonly string[]): Option {
  return option(command, '--format <format>', 'output format', "from --out's extension (.json, .csv, .txt), else table").choices(allowed as string[]);
}

export function outOption(command: Command): Option {
  return option(command, '--out <file>', 'write the report to this file (atomically; format from its extension unless --format)', 'stdout');
}

/** `perRunChart`: what --per-run does to the command's chart (replay: every run's own chart), said in its help. */
export function addViewOptions(command: Command, perRunChart?: { what: string; absent: string }): Command {
  const table = 'table: per-run rows after the summary however many runs';
  const help = perRunChart === undefined ? table : `${table}; chart: ${perRunChart.what}`;
  const absent = perRunChart === undefined ? 'only when there are at most 20' : `rows only when there are at most 20; ${perRunChart.absent}`;
  return addWideOption(command).addOption(option(command, '--per-run', help, absent));
}

/** `--wide` alone: for a command whose report has no per-run rows (sweep, calibrate). */
export function addWideOption(command: Command): Command {
  return command.addOption(option(command, '--wide', 'table: every column, wider than the terminal if need be', 'rarely needed columns left out'));
}

/**
 * `--per-run` on a command whose report has no per-run rows: left out of its help, and refused by its
 * action (so a user who types it is told what shows per-run rows, not that the flag is unknown).
 */
export function addRefusedPerRunOption(command: Command): Command {
  return command.addOption(option(command, '--per-run', 'refused: no per-run rows in this report', 'refused').hideHelp());
}

/**
 * A flag that takes one value, given twice (`--max-steps 3 --max-steps 5`), is refused rather than the
 * last one silently winning: the user meant one of them. Flags that collect their values (`--grid`,
 * `--try`: their help says "repeatable") may be given again; on/off switches without a value too.
 */
function takesOneValue(option: Option): boolean {
  return (option.required || option.optional) && !/repeatable/.test(option.description);
}

/** Every command under `program` (subcommands too) refuses a one-value flag given twice, as commander reads it. */
export function refuseRepeatedFlags(program: Command): void {
  for (const command of program.commands) {
    for (const option of command.options.filter(takesOneValue)) {
      let seen = 0;
      command.on(`option:${option.name()}`, () => {
        seen += 1;
        if (seen > 1) {
          throw new UserError({ file: '<command line>', field: option.long ?? option.flags, code: 'repeated_flag', message: 'is given more than once; it takes one value', hint: `keep the ${option.long ?? option.flags} you mean and drop the other` });
        }
      });
    }
    refuseRepeatedFlags(command);
  }
}
