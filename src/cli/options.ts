/**
 * Options shared by several commands (brakes, context, prices, output). Registration only: nothing here
 * parses values (parseFlags.ts does, inside the actions) or imports more than commander.
 */
import type { Command, Option } from 'commander';

export const REPORT_FORMATS = ['table', 'csv', 'json', 'chart'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function addContextOptions(command: Command): Command {
  return command
    .option('--context <strategy>', "context strategy: 'full' or 'window:K'", 'full')
    .option('--tool-result-cap <tokens>', 'truncate each tool result to this many tokens')
    .option('--cache <mode>', 'prompt caching: on | off (default: as recorded for recorded traces, off for synthetic)');
}

export function addPriceOptions(command: Command): Command {
  return command
    .option('--prices <file>', 'a LiteLLM model_prices_and_context_window.json to use instead of the bundled table (models it lacks are errors)')
    .option('--prices-override <file>', 'a LiteLLM-format file whose models override the bundled table (or --prices); every other model keeps its price (e.g. from loopcost prices derive)')
    .option('--prices-as-of <YYYY-MM-DD>', "read the bundled table's dated prices as of this day for every run (default: the day each run was recorded, else the table's release day)");
}

export function latencyModelOption(command: Command): Option {
  return command.createOption('--latency-model <spec>', 'virtual time for calls and tools a trace has no latency for: call=MS,input-token=MS,output-token=MS,tool=MS');
}

export function addBrakeOptions(command: Command): Command {
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
    .addOption(latencyModelOption(command));
}

export function formatOption(command: Command, allowed: readonly string[]): Option {
  return command.createOption('--format <format>', 'output format').choices(allowed as string[]).default('table');
}

export function addViewOptions(command: Command): Command {
  return command
    .option('--wide', 'table: show rarely needed columns too')
    .option('--per-run', 'table: per-run rows after the summary however many runs (default: only when there are at most 20)');
}
