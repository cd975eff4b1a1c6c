import type { CommandModule } from '../command.js';

const importCommand: CommandModule = {
  register(program, { io, setExitCode }) {
    program
      .command('import')
      .description('convert traces of any supported format to native JSONL')
      .argument('<inputs...>', 'trace files, directories or globs')
      .option('--out <file>', 'write here (atomically) instead of stdout')
      .action(async (inputs: string[], opts: { out?: string }) => {
        const { runImport } = await import('../actions/import.js');
        setExitCode(runImport(inputs, opts.out, io));
      });
  },
};
export default importCommand;
