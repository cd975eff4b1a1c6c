import type { CommandModule } from '../command.js';
import type { CompareFlags } from '../actions/compare.js';
import { addInputOptions, addPriceOptions, addViewOptions, formatOption, option, outOption } from '../options.js';

const compare: CommandModule = {
  name: 'compare',
  register(program, { io, setExitCode }) {
    const command = program
      .command(compare.name)
      .description('replay runs as recorded and compare computed cost and tokens with what the source recorded')
      .argument('<inputs...>', 'trace files, directories or globs');
    command
      .addOption(option(command, '--tolerance <relative>', 'relative cost difference still counted as agreement', '1e-6', '1e-6'))
      .addOption(formatOption(command, ['table', 'csv', 'json']))
      .addOption(outOption(command));
    addInputOptions(addViewOptions(addPriceOptions(command))).action(async (inputs: string[], opts: CompareFlags) => {
      const { compareAction } = await import('../actions/compare.js');
      setExitCode(await compareAction(inputs, opts, io));
    });
  },
};
export default compare;
