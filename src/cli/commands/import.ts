import type { CommandModule } from '../command.js';
import { option } from '../options.js';

const importCommand: CommandModule = {
  register(program, { io, setExitCode }) {
    const command = program
      .command('import')
      .description('convert traces of any supported format to native JSONL')
      .argument('<inputs...>', 'trace files, directories or globs');
    command.addOption(option(command, '--out <file>', 'write the native JSONL here (atomically)', 'stdout')).action(async (inputs: string[], opts: { out?: string }) => {
      const { runImport } = await import('../actions/import.js');
      setExitCode(runImport(inputs, opts.out, io));
    });
  },
};
export default importCommand;
