import type { CommandModule } from '../command.js';
import type { CalibrateFlags } from '../actions/calibrate.js';
import { addBrakeOptions, addContextOptions, addInputOptions, addPriceOptions, addRefusedPerRunOption, addScenarioOptions, addWideOption, formatOption, givenOptions, option, outOption } from '../options.js';
import { sweepPerRunRefused } from './sweep.js';

const calibrate: CommandModule = {
  name: 'calibrate',
  register(program, { io, setExitCode }) {
    const command = program
      .command(calibrate.name)
      .description('loop-detector settings judged: precision and recall of catching stuck synthetic runs (ground truth), steps wasted before the catch, false stops on runs that complete')
      .argument('<inputs...>', 'scenario files (synthetic runs with ground truth) and trace files (false stops), directories or globs');
    command
      .addOption(
        option(command, '--grid <KEY=V1,V2,...>', "a setting to vary, as in loopcost sweep (e.g. max-repeat=2,3,4,5, repeat-mode=total,consecutive,cycle, max-same-error=2,3); repeatable", 'one configuration: the flags given').argParser(
          (value: string, previous: string[] = []) => [...previous, value],
        ),
      )
      .addOption(option(command, '--force', 'allow a grid of more than 100,000 configurations (~4 KB of memory each)', 'refused'))
      .addOption(formatOption(command, ['table', 'csv', 'json']))
      .addOption(option(command, '--model <model>', 're-price every run as if made on this model', "each run's own model"))
      .addOption(outOption(command));
    addInputOptions(addRefusedPerRunOption(addWideOption(addScenarioOptions(addBrakeOptions(addPriceOptions(addContextOptions(command, 'sweep'))))))).action(async (inputs: string[], opts: CalibrateFlags) => {
      if (opts.perRun === true) throw sweepPerRunRefused('calibrate');
      const { calibrateAction } = await import('../actions/calibrate.js');
      setExitCode(await calibrateAction(inputs, opts, io, givenOptions(command)));
    });
  },
};
export default calibrate;
