import type { CommandModule } from '../command.js';
import type { PriceFlags } from '../parseFlags.js';
import { addPriceOptions } from '../options.js';

const prices: CommandModule = {
  register(program, { io, setExitCode }) {
    const command = program
      .command('prices')
      .description('what a model costs and where the price came from (no model: list models)')
      .argument('[model]')
      .option('--json', 'JSON output');
    addPriceOptions(command).action(async (model: string | undefined, opts: PriceFlags & { json?: boolean }) => {
      const { pricesAction } = await import('../actions/prices.js');
      setExitCode(pricesAction(model, opts, io));
    });
  },
};
export default prices;
