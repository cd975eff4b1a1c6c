import type { CommandModule } from '../command.js';
import type { DeriveFlags } from '../actions/pricesDerive.js';
import type { PricesFlags } from '../actions/prices.js';
import { addInputOptions, addPriceOptions, option } from '../options.js';

const prices: CommandModule = {
  name: 'prices',
  register(program, { io, setExitCode }) {
    const command = program
      .command(prices.name)
      .description('what a model costs and where the price came from (no model: list models); prices derive: prices from recorded costs')
      .argument('[model]', 'a model name (no model: list every model the table knows)');
    // Options after `derive` are derive's own (both have --format).
    command.enablePositionalOptions();
    command
      .addOption(option(command, '--format <format>', 'output format', 'table').choices(['table', 'json']))
      .addOption(option(command, '--json', 'JSON output: the same as --format json', 'a table'));
    addPriceOptions(command, 'model').action(async (model: string | undefined, opts: PricesFlags) => {
      const { pricesAction } = await import('../actions/prices.js');
      setExitCode(pricesAction(model, opts, io));
    });
    const derive = command
      .command('derive')
      .description('recover per-token prices (input, cached, cache write, output, reasoning) per model from runs that recorded their cost, by exact least squares')
      .argument('<inputs...>', 'trace files, directories or globs whose runs recorded their cost');
    derive
      .addOption(option(derive, '--out <file>', 'write the derived prices here as a LiteLLM price file (for --prices-override)', 'the report only'))
      .addOption(option(derive, '--format <format>', 'report format', 'table', 'table').choices(['table', 'json']));
    addInputOptions(derive).action(async (inputs: string[], opts: DeriveFlags) => {
      const { pricesDeriveAction } = await import('../actions/pricesDerive.js');
      setExitCode(await pricesDeriveAction(inputs, opts, io));
    });
  },
};
export default prices;
