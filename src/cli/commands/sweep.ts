import type { CommandModule } from '../command.js';
import type { SweepFlags } from '../actions/sweep.js';
import { UserError } from '../../errors.js';
import type { SweepShow } from '../../report/sweepShow.js';
import { addBrakeOptions, addContextOptions, addInputOptions, addPriceOptions, addRefusedPerRunOption, addScenarioOptions, addTreeOptions, addWideOption, formatOption, givenOptions, option, outOption, REPORT_FORMATS } from '../options.js';

/** `--show`'s choices (report/sweepShow.ts; here, not imported from there: --help loads no report module). */
const SWEEP_SHOW = ['all', 'frontier'] as const satisfies readonly SweepShow[];

/** A sweep's report has a row per configuration, none per run: --per-run is refused, naming what shows runs. */
export function sweepPerRunRefused(command: 'sweep' | 'calibrate' | 'merge'): UserError {
  return new UserError({
    file: '<command line>',
    field: '--per-run',
    code: 'flag_without_effect',
    message: `does nothing: ${command}'s report has a row per configuration, not per run`,
    hint: 'to see the runs of one configuration, give its settings as flags to loopcost replay with --per-run: for --grid max-steps=50,100, loopcost replay INPUTS --max-steps 50 --per-run',
  });
}

const sweep: CommandModule = {
  name: 'sweep',
  register(program, { io, setExitCode }) {
    const command = program
      .command(sweep.name)
      .description('every combination of brake and context settings over recorded and synthetic runs: completions, spend, false stops per configuration, the frontier and a recommendation')
      .argument('<inputs...>', "trace files, scenario files, directories or globs (a scenario file gives its population, runs, seed, latency, and its brakes and context under the sweep's flags and grid)");
    command
      .addOption(
        option(command, '--grid <KEY=V1,V2,...>', "a setting to vary, named as its flag without '--' (max-steps, max-cost, budget-mode, timeout, max-repeat, repeat-mode, repeat-action, max-same-error, context, tool-result-cap, cache, model, preset, ...); repeatable: the grid is the cross product", 'one configuration: the flags given').argParser(
          (value: string, previous: string[] = []) => [...previous, value],
        ),
      )
      .addOption(option(command, '--force', 'allow a grid of more than 100,000 configurations (~4 KB of memory each)', 'refused'))
      .addOption(option(command, '--target-completion <rate>', 'recommend the cheapest configuration (per completed run) completing at least this share of runs: 0.9 or 90%', 'no recommendation'))
      .addOption(option(command, '--max-false-stops <share>', 'with --target-completion: recommend only configurations whose false stops are at most this share of the runs that complete with no brakes (falseStopRate): 0.05 or 5%; 0 for none', 'no bound (the pick says its false stops)'))
      .addOption(option(command, '--workers <n>', 'threads, this one included (1: no worker thread; output identical to 1)', 'the cores, one per 8 configurations at most'))
      .addOption(option(command, '--shard <K/N>', 'compute only slice K of N of the configurations, as JSON for loopcost merge (JSON without --format; an --out must be named .json)', 'all'))
      .addOption(formatOption(command, REPORT_FORMATS))
      .addOption(option(command, '--show <rows>', "the table's rows: every configuration, or the frontier (the rows starred *) and the recommended one (table and --report-dir's sweep.txt; CSV and JSON carry every row, the chart plots every configuration)", 'all').choices([...SWEEP_SHOW]))
      .addOption(option(command, '--model <model>', 're-price every run as if made on this model', "each run's own model"))
      .addOption(outOption(command))
      .addOption(option(command, '--report-dir <dir>', 'write json, csv, table and chart reports into this directory (not with --out, --format or --shard)', 'none'));
    addInputOptions(addTreeOptions(addRefusedPerRunOption(addWideOption(addScenarioOptions(addBrakeOptions(addPriceOptions(addContextOptions(command, 'sweep')))))))).action(async (inputs: string[], opts: SweepFlags) => {
      if (opts.perRun === true) throw sweepPerRunRefused('sweep');
      const { sweepAction } = await import('../actions/sweep.js');
      const { availableParallelism } = await import('node:os');
      setExitCode(await sweepAction(inputs, opts, io, givenOptions(command), availableParallelism()));
    });
  },
};
export default sweep;
