import type { CommandModule } from '../command.js';
import type { ReplayFlags } from '../actions/replay.js';
import { addBrakeOptions, addContextOptions, addPriceOptions, addViewOptions, formatOption, REPORT_FORMATS } from '../options.js';

const replay: CommandModule = {
  register(program, { io, setExitCode }) {
    const command = program
      .command('replay')
      .description('replay traces (files, directories, globs; any supported format, .gz too) through the brakes')
      .argument('<inputs...>', 'trace files, directories or globs')
      .addOption(formatOption(program, REPORT_FORMATS))
      .option('--model <model>', 're-price every run as if made on this model')
      .option('--out <file>', 'write the report here (atomically) instead of stdout')
      .option('--report-dir <dir>', 'write json, csv, table, chart and per-step csv reports into this directory')
      .option('--per-step', "every model call's tokens (cached included) and cost: in JSON per run, in CSV one row per call");
    addViewOptions(addBrakeOptions(addPriceOptions(addContextOptions(command)))).action(async (inputs: string[], opts: ReplayFlags) => {
      const { replayAction } = await import('../actions/replay.js');
      setExitCode(replayAction(inputs, opts, io));
    });
  },
};
export default replay;
