import type { CommandModule } from '../command.js';
import type { WhatIfFlags } from '../actions/whatif.js';
import { WHATIF_REFUSED_BRAKE_FLAGS } from '../../flags/brakeKeys.js';
import { addTreeOptions, addContextOptions, addInputOptions, addPriceOptions, addScenarioOptions, addViewOptions, formatOption, givenOptions, latencyModelOption, option, outOption } from '../options.js';

const whatif: CommandModule = {
  name: 'whatif',
  register(program, { io, setExitCode }) {
    const command = program
      .command(whatif.name)
      .description("what would other brake settings have done to these runs? (baseline: the settings they were recorded with; a scenario file's brakes for its runs; each --try changes only the brakes it names)")
      .argument('<inputs...>', "trace files, scenario files, directories or globs (a scenario file's runs take its own settings, with the flags given on top)");
    const tryOption = command
      .createOption('--try <setting>', "(required) brakes to change, set on top of each run's baseline brakes (every other brake kept), e.g. 'max-steps=50' or 'max-repeat=3,repeat-mode=consecutive'; naming a preset tries a whole set in place of the baseline's: 'preset=none,max-steps=50' is a step cap alone (repeatable)")
      .argParser((value: string, previous: string[] = []) => [...previous, value])
      .makeOptionMandatory();
    command
      .addOption(tryOption)
      .addOption(formatOption(command, ['table', 'csv', 'json']))
      .addOption(option(command, '--model <model>', 're-price every run as if made on this model', "each run's own model"))
      .addOption(outOption(command))
      .addOption(latencyModelOption(command))
      // Refused by the action (whatifPreset.ts), with or without a value, before --try is asked for: a preset is tried with --try preset=NAME.
      .addOption(option(command, '--preset [name]', 'refused: a preset is tried with --try preset=NAME', 'refused').hideHelp());
    command.on('option:preset', () => tryOption.makeOptionMandatory(false));
    // Replay's brake flags, refused by the action (whatifBrakeFlags.ts) naming the --try that tries each, before --try is asked for.
    for (const [name] of WHATIF_REFUSED_BRAKE_FLAGS) {
      command.addOption(option(command, `--${name} [value]`, `refused: a brake is tried with --try ${name}=VALUE`, 'refused').hideHelp());
      command.on(`option:${name}`, () => tryOption.makeOptionMandatory(false));
    }
    addTreeOptions(addInputOptions(addViewOptions(addScenarioOptions(addPriceOptions(addContextOptions(command)))))).action(async (inputs: string[], opts: WhatIfFlags) => {
      const { whatIfAction } = await import('../actions/whatif.js');
      setExitCode(await whatIfAction(inputs, opts, io, givenOptions(command)));
    });
  },
};
export default whatif;
