import type { CommandModule } from '../command.js';
import type { MergeFlags } from '../actions/merge.js';
import { addRefusedPerRunOption, addWideOption, formatOption, outOption, REPORT_FORMATS } from '../options.js';
import { sweepPerRunRefused } from './sweep.js';

const merge: CommandModule = {
  name: 'merge',
  register(program, { io, setExitCode }) {
    const command = program
      .command(merge.name)
      .description('join the JSON reports of loopcost sweep --shard K/N into the report one run of the whole sweep gives')
      .argument('<shards...>', 'the JSON report of every shard, each once, in any order');
    command.addOption(formatOption(command, REPORT_FORMATS)).addOption(outOption(command));
    addRefusedPerRunOption(addWideOption(command)).action(async (files: string[], opts: MergeFlags & { perRun?: boolean }) => {
      if (opts.perRun === true) throw sweepPerRunRefused('merge');
      const { mergeAction } = await import('../actions/merge.js');
      setExitCode(mergeAction(files, opts, io));
    });
  },
};
export default merge;
