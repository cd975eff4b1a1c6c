import type { CommandModule } from '../command.js';
import type { CurveFlags } from '../actions/curve.js';
import { addBrakeOptions, addContextOptions, addPriceOptions, formatOption, REPORT_FORMATS } from '../options.js';

const curve: CommandModule = {
  register(program, { io, setExitCode }) {
    const command = program
      .command('curve')
      .description('per-step token and cost growth of a loop with constant step sizes')
      .requiredOption('--model <model>', 'model to price')
      .requiredOption('--system-tokens <n>', 'system prompt tokens')
      .option('--goal-tokens <n>', 'goal / task tokens', '0')
      .requiredOption('--output-tokens <n>', 'output tokens per step')
      .requiredOption('--tool-tokens <n>', 'tool-result tokens per step')
      .requiredOption('--steps <n>', 'number of steps')
      .addOption(formatOption(program, REPORT_FORMATS))
      .option('--out <file>', 'write here (atomically) instead of stdout');
    addBrakeOptions(addPriceOptions(addContextOptions(command))).action(async (opts: CurveFlags) => {
      const { curveAction } = await import('../actions/curve.js');
      setExitCode(curveAction(opts, io));
    });
  },
};
export default curve;
