import type { CommandModule } from '../command.js';
import type { ReplayFlags } from '../actions/replay.js';
import { addBrakeOptions, addContextOptions, addPriceOptions, addViewOptions, formatOption, option, outOption, REPORT_FORMATS } from '../options.js';

const replay: CommandModule = {
  register(program, { io, setExitCode }) {
    const command = program
      .command('replay')
      .description('replay traces (files, directories, globs; any supported format, .gz too) through the brakes')
      .argument('<inputs...>', 'trace files, directories or globs');
    command
      .addOption(formatOption(command, REPORT_FORMATS))
      .addOption(option(command, '--model <model>', 're-price every run as if made on this model', "each run's own model"))
      .addOption(outOption(command))
      .addOption(option(command, '--report-dir <dir>', 'write json, csv, table, chart and per-step csv reports into this directory (not with --out or --format)', 'none'))
      .addOption(option(command, '--per-step', "every model call's tokens (cached included) and cost: in JSON per run, in CSV one row per call (not in a table)", 'per run'));
    addViewOptions(addBrakeOptions(addPriceOptions(addContextOptions(command)))).action(async (inputs: string[], opts: ReplayFlags) => {
      const { replayAction } = await import('../actions/replay.js');
      setExitCode(replayAction(inputs, opts, io));
    });
  },
};
export default replay;
