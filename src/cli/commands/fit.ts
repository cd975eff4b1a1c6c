import type { CommandModule } from '../command.js';
import type { FitFlags } from '../actions/fit.js';
import { addInputOptions, addPriceOptions, option } from '../options.js';

const fit: CommandModule = {
  name: 'fit',
  register(program, { io, setExitCode }) {
    const command = program
      .command(fit.name)
      .description('write a scenario whose synthetic population reproduces recorded runs')
      .argument('<inputs...>', 'recorded traces (files, directories, globs; any supported format)');
    command
      .addOption(option(command, '--out <file>', 'write the profile here (atomically)', 'stdout'))
      .addOption(option(command, '--report', 'replay the recorded runs and the fitted profile and print their quantiles side by side (on stderr when the profile goes to stdout)', 'no report'))
      // No default values: a flag given without --report does nothing, and is said to (actions/fit.ts).
      .addOption(option(command, '--runs <n>', 'synthetic runs for --report', '2000'))
      .addOption(option(command, '--seed <n>', 'seed for --report', '1'))
      .addOption(option(command, '--format <format>', '--report\'s format', 'table').choices(['table', 'json']));
    addInputOptions(addPriceOptions(command)).action(async (inputs: string[], opts: FitFlags) => {
      const { fitAction } = await import('../actions/fit.js');
      setExitCode(await fitAction(inputs, opts, io));
    });
  },
};
export default fit;
