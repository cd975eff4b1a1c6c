import type { CommandModule } from '../command.js';
import { UserError } from '../../errors.js';
import type { CheckFlags } from '../actions/check.js';
import { addBrakeOptions, addContextOptions, addInputOptions, addPriceOptions, addScenarioOptions, addTreeOptions, givenOptions, option, outOption } from '../options.js';

const CHECK_FORMATS = ['table', 'json'];

/** `--format`: one of CHECK_FORMATS; any other (`junit`) refused with the flag that writes JUnit XML. */
function checkFormat(value: string): string {
  if (CHECK_FORMATS.includes(value)) return value;
  throw new UserError({ file: '<command line>', field: '--format', code: 'bad_value', message: `'${value}' is not a format check writes: allowed choices are ${CHECK_FORMATS.join(', ')}`, hint: 'for JUnit XML, give --junit FILE: it is written beside the table or JSON report' });
}

const check: CommandModule = {
  name: 'check',
  register(program, { io, setExitCode }) {
    const command = program
      .command(check.name)
      .description("hold scenario files' expectations (expect:) against their runs, synthetic and recorded (traces:): exit 0 when all hold, 1 when any fails, 2 for bad input")
      .argument('<scenarios...>', "scenario files, directories or globs (trace files in a directory are left out: a scenario's traces: names the recorded runs it checks)");
    command
      // check writes no CSV: its own default text, not the shared one that names .csv.
      .addOption(option(command, '--format <format>', 'output format', "from --out's extension (.json, or .txt for a table), else table").choices(CHECK_FORMATS).argParser(checkFormat))
      .addOption(outOption(command))
      .addOption(option(command, '--model <model>', 're-price every run as if made on this model', "each run's own model"))
      .addOption(option(command, '--junit <file>', 'also write JUnit XML: one testcase per expectation, a failure carries the measured value and the limit', 'none'))
      .addOption(option(command, '--update-baseline <file>', "write the measured figures, each scenario's settings, models and run counts, the price table's source and hash and loopcost's version to this file (a first run: the baseline later checks compare with; naming the --baseline file: accepts what this check found against it, exit 0 unless an expectation fails)", 'none'))
      .addOption(option(command, '--baseline <file>', 'report drift against a baseline written by --update-baseline, with what changed since (settings, model, runs; a changed price table is reported as a price change)', 'none'))
      .addOption(option(command, '--tolerance <share>', "with --baseline: drift allowed before a figure fails ('5%' or 0.05, a bare number below 1; rates in points, money as a share of the baseline)", '5%'));
    addInputOptions(addTreeOptions(addScenarioOptions(addBrakeOptions(addPriceOptions(addContextOptions(command)))))).action(async (inputs: string[], opts: CheckFlags) => {
      const { checkAction } = await import('../actions/check.js');
      setExitCode(await checkAction(inputs, opts, io, givenOptions(command)));
    });
  },
};
export default check;
