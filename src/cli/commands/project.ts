import type { CommandModule } from '../command.js';
import type { ProjectFlags } from '../actions/project.js';
import { addBrakeOptions, addContextOptions, addInputOptions, addPriceOptions, addScenarioOptions, addTreeOptions, givenOptions, option, outOption } from '../options.js';

const project: CommandModule = {
  name: 'project',
  register(program, { io, setExitCode }) {
    const command = program
      .command(project.name)
      .description('daily and period spend at p50/p95/p99 (seeded Monte Carlo over these runs), the worst case the brakes allow, and how far to trust it')
      .argument('<inputs...>', 'trace files, scenario files, directories or globs: the runs each day draws from');
    command
      .addOption(option(command, '--runs-per-day <n>', 'runs a day', "the scenario files' runsPerDay (summed), else 100"))
      .addOption(option(command, '--days <n>', 'days in the period', '30'))
      .addOption(option(command, '--trials <n>', 'simulated periods', '1000'))
      .addOption(option(command, '--suggest-cap <share>', 'name the per-run budget that stops at most this share of the runs that complete with no brakes (synthetic runs: by ground truth; 0.02 or 2%)', 'none'))
      // project writes no CSV: its own default text, not the shared one that names .csv (as check).
      .addOption(option(command, '--format <format>', 'output format', "from --out's extension (.json, or .txt for a table), else table").choices(['table', 'json']))
      .addOption(option(command, '--model <model>', 're-price every run as if made on this model', "each run's own model"))
      .addOption(outOption(command));
    addScenarioOptions(addBrakeOptions(addPriceOptions(addContextOptions(command))));
    // project's --seed seeds the scenario files' synthetic runs too (seedSeedsProjection), not the projection alone.
    const seed = command.options.find((o) => o.long === '--seed');
    if (seed !== undefined) {
      seed.description = 'seed of the simulated days and the bootstrap, and of the synthetic runs (the population) of every scenario file';
      seed.defaultValueDescription = "1 for the days and the bootstrap; the synthetic runs the file's seed, else 1";
    }
    addInputOptions(addTreeOptions(command)).action(async (inputs: string[], opts: ProjectFlags) => {
      const { projectAction } = await import('../actions/project.js');
      setExitCode(await projectAction(inputs, opts, io, givenOptions(command)));
    });
  },
};
export default project;
