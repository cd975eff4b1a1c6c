import type { CommandModule } from '../command.js';
import type { DeriveFlags } from '../actions/pricesDerive.js';
import type { PriceFlags } from '../parseFlags.js';
import { addPriceOptions } from '../options.js';

const prices: CommandModule = {
  register(program, { io, setExitCode }) {
    const command = program
      .command('prices')
      .description('what a model costs and where the price came from (no model: list models); prices derive: prices from recorded costs')
      .argument('[model]', 'a model name (no model: list every model the table knows)')
      .option('--json', 'JSON output');
    addPriceOptions(command).action(async (model: string | undefined, opts: PriceFlags & { json?: boolean }) => {
      const { pricesAction } = await import('../actions/prices.js');
      setExitCode(pricesAction(model, opts, io));
    });
    command
      .command('derive')
      .description('recover per-token prices (input, cached, cache write, output, reasoning) per model from runs that recorded their cost, by exact least squares')
      .argument('<inputs...>', 'trace files, directories or globs whose runs recorded their cost')
      .option('--out <file>', 'write the derived prices here as a LiteLLM price file (for --prices-override)')
      .addOption(program.createOption('--format <format>', 'report format').choices(['table', 'json']).default('table'))
      .action(async (inputs: string[], opts: DeriveFlags) => {
        const { pricesDeriveAction } = await import('../actions/pricesDerive.js');
        setExitCode(pricesDeriveAction(inputs, opts, io));
      });
  },
};
export default prices;
