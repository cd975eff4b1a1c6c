import type { CommandModule } from '../command.js';
import type { ContextsFlags } from '../actions/contexts.js';
import { UserError } from '../../errors.js';
import { addBrakeOptions, addInputOptions, addPriceOptions, addRefusedPerRunOption, addWideOption, formatOption, option, outOption } from '../options.js';

/** contexts' report has a row per strategy and cache mode, none per run: --per-run is refused, naming what shows runs. */
export function contextsPerRunRefused(): UserError {
  return new UserError({
    file: '<command line>',
    field: '--per-run',
    code: 'flag_without_effect',
    message: "does nothing: contexts' report has a row per context strategy and cache mode, not per run",
    hint: 'to see the runs under one strategy, give it to loopcost replay with --per-run: loopcost replay INPUTS --context window:5 --cache on --per-run',
  });
}

const contexts: CommandModule = {
  name: 'contexts',
  register(program, { io, setExitCode }) {
    const command = program
      .command(contexts.name)
      .description('cost per run of recorded runs under several context strategies, with prompt caching on and off, side by side')
      .argument('<inputs...>', 'trace files, directories or globs');
    command
      .addOption(
        option(
          command,
          '--compare-context <list>',
          "context strategies separated by ';', in --context syntax (e.g. 'full;window:5;mask:10;summary:trigger=50000,keep=5,tokens=2000'). A real loop's recording that states the strategy it ran under is compared from its full history in every row (full too), and an 'as recorded' row shows each run as its loop ran it; a summary strategy's recording, which cannot be rebuilt, is left out",
          'full;window:5;mask:10',
          'full;window:5;mask:10',
        ),
      )
      .addOption(option(command, '--cache-modes <list>', "cache modes, comma-separated: 'on,off', 'on' or 'off'", 'on,off', 'on,off'))
      .addOption(option(command, '--tool-result-cap <tokens>', 'truncate each tool result to this many tokens (every strategy)', 'no cap'))
      .addOption(option(command, '--model <model>', 're-price every run as if made on this model', "each run's own model"))
      .addOption(formatOption(command, ['table', 'csv', 'json']))
      .addOption(outOption(command));
    addInputOptions(addRefusedPerRunOption(addWideOption(addBrakeOptions(addPriceOptions(command))))).action(async (inputs: string[], opts: ContextsFlags) => {
      if (opts.perRun === true) throw contextsPerRunRefused();
      const { contextsAction } = await import('../actions/contexts.js');
      setExitCode(await contextsAction(inputs, opts, io));
    });
  },
};
export default contexts;
