import type { CommandModule } from '../command.js';
import type { ReadFlags } from '../parseFlags.js';
import { addInputOptions, option } from '../options.js';

const importCommand: CommandModule = {
  name: 'import',
  register(program, { io, setExitCode }) {
    const command = program
      .command(importCommand.name)
      .description('convert traces of any supported format to native JSONL')
      .argument('<inputs...>', 'trace files, directories or globs');
    command.addOption(option(command, '--out <file>', 'write the native JSONL here (atomically)', 'stdout'));
    addInputOptions(command).action(async (inputs: string[], opts: ReadFlags & { out?: string }) => {
      const { importAction } = await import('../actions/import.js');
      setExitCode(await importAction(inputs, opts, io));
    });
  },
};
export default importCommand;
