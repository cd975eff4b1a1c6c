import type { CommandModule } from '../command.js';
import type { ServeFlags } from '../actions/serve.js';
import { addInputOptions, addPriceOptions, option } from '../options.js';
import { BRAKE_KEYS } from '../../flags/brakeKeys.js';

const serve: CommandModule = {
  name: 'serve',
  register(program, { io, setExitCode }) {
    const command = program
      .command(serve.name)
      .description('answer an agent over HTTP (OpenAI Chat Completions) with recorded traces, or a scenario\'s synthetic behaviours reacting to the messages it sends; Ctrl-C stops it')
      .argument('<inputs...>', 'trace files, directories or globs, or one scenario file');
    command
      .addOption(option(command, '--port <n>', 'TCP port (0: any free port, printed on start)', '8787', '8787'))
      .addOption(option(command, '--host <address>', 'address to listen on (only what you name here is exposed)', '127.0.0.1', '127.0.0.1'))
      .addOption(option(command, '--cache <mode>', 'prompt caching the usage reports: on | off (recorded traces also: recorded)', 'as recorded for recorded traces; the file\'s, else off, for a scenario'))
      .addOption(option(command, '--max-sessions <n>', 'most sessions in progress at once; one more is answered 503 (ended sessions keep only their totals)', 'no limit'))
      .addOption(option(command, '--session-idle-seconds <s>', 'retire a session in progress after this many seconds without a request (a run its own brakes stopped), keeping its totals; a later request to it gets a 409', 'never (end one with POST /loopcost/sessions/<id>/end)'))
      .addOption(option(command, '--seed <n>', 'seed of the synthetic runs (scenario input)', "the file's seed, else 1"))
      .addOption(option(command, '--check', 'read and check the inputs, prices and flags, say what would be served, and exit without listening', 'serve until Ctrl-C'));
    // Replay's brake flags and --model, refused by the action (serveBrakeFlags.ts): serve applies no brakes and no repricing, and says what does.
    for (const name of [...Object.keys(BRAKE_KEYS), 'model']) command.addOption(option(command, `--${name} [value]`, 'refused: serve applies no brakes and no repricing', 'refused').hideHelp());
    addInputOptions(addPriceOptions(command)).action(async (inputs: string[], opts: ServeFlags) => {
      const { serveAction } = await import('../actions/serve.js');
      setExitCode(await serveAction(inputs, opts, io));
    });
  },
};
export default serve;
