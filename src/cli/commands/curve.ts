import type { CommandModule } from '../command.js';
import type { CurveFlags } from '../actions/curve.js';
import { addBrakeOptions, addContextOptions, addPriceOptions, formatOption, option, outOption, REPORT_FORMATS, required } from '../options.js';

const curve: CommandModule = {
  name: 'curve',
  register(program, { io, setExitCode }) {
    const command = program.command(curve.name).description('per-step token and cost growth of a loop with constant step sizes');
    command
      .addOption(required(command, '--model <model>', 'model to price'))
      .addOption(required(command, '--system-tokens <n>', 'system prompt tokens'))
      .addOption(option(command, '--goal-tokens <n>', 'goal / task tokens', '0', '0'))
      .addOption(required(command, '--output-tokens <n>', 'output tokens per step'))
      .addOption(required(command, '--tool-tokens <n>', 'tool-result tokens per step'))
      .addOption(required(command, '--steps <n>', 'number of steps'))
      .addOption(option(command, '--compare-context <list>', "more context strategies to show side by side with --context, separated by ';' (e.g. 'window:5;mask:10;summary:trigger=50000,keep=5,tokens=2000'): cumulative tokens per step and cost of each", 'none'))
      .addOption(formatOption(command, REPORT_FORMATS))
      .addOption(outOption(command));
    addBrakeOptions(addPriceOptions(addContextOptions(command, 'curve'), 'curve'), 'curve').action(async (opts: CurveFlags) => {
      const { curveAction } = await import('../actions/curve.js');
      setExitCode(curveAction(opts, io));
    });
  },
};
export default curve;
