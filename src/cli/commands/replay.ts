import type { CommandModule } from '../command.js';
import type { ReplayFlags } from '../actions/replay.js';
import { addTreeOptions, addBrakeOptions, addContextOptions, addInputOptions, addPriceOptions, addScenarioOptions, addViewOptions, formatOption, givenOptions, option, outOption, REPORT_FORMATS } from '../options.js';

/** What --per-run does to replay's chart (src/report/replayChart.ts; 3 is its FEW_RUNS, which is not imported here: registration loads no report code). */
const PER_RUN_CHART = { what: "every run's own chart after its input's chart", absent: "a run's own chart only for an input of at most 3 runs" };

const replay: CommandModule = {
  name: 'replay',
  register(program, { io, setExitCode }) {
    const command = program
      .command(replay.name)
      .description('replay traces (files, directories, globs; any supported format, .gz too) and scenario files through the brakes')
      .argument('<inputs...>', "trace files, scenario files, directories or globs (a scenario file's runs take its own settings, with the flags given on top)");
    command
      .addOption(formatOption(command, REPORT_FORMATS))
      .addOption(option(command, '--model <model>', 're-price every run as if made on this model', "each run's own model"))
      .addOption(outOption(command))
      .addOption(option(command, '--report-dir <dir>', 'write json, csv, table, chart and per-step csv reports into this directory (not with --out or --format)', 'none'))
      .addOption(option(command, '--per-step', "every model call's tokens (cached included) and cost: in JSON per run, in CSV one row per call (not in a table)", 'per run'));
    addTreeOptions(addInputOptions(addViewOptions(addScenarioOptions(addBrakeOptions(addPriceOptions(addContextOptions(command)))), PER_RUN_CHART))).action(async (inputs: string[], opts: ReplayFlags) => {
      const { replayAction } = await import('../actions/replay.js');
      setExitCode(await replayAction(inputs, opts, io, givenOptions(command)));
    });
  },
};
export default replay;
