import type { CommandModule } from '../command.js';
import type { GenerateFlags } from '../actions/generate.js';
import { addPriceOptions, addScenarioOptions, givenOptions, option } from '../options.js';

const generate: CommandModule = {
  name: 'generate',
  register(program, { io, setExitCode }) {
    const command = program
      .command(generate.name)
      .description("write a scenario file's synthetic runs as native JSONL traces (no brakes, up to the hard cap or the provider's refusal of a prompt + max_tokens past the window; the file's context)")
      .argument('<scenario>', 'scenario file (YAML or JSON)');
    command
      .addOption(option(command, '--context <strategy>', "context strategy the runs unfold under (as --context of replay)", "the file's, else full"))
      .addOption(option(command, '--tool-result-cap <tokens>', 'truncate each tool result to this many tokens', "the file's, else no cap"))
      .addOption(option(command, '--cache <mode>', 'prompt caching: on | off', "the file's, else off"))
      .addOption(option(command, '--latency-model <spec>', 'latencies written on calls and tool calls: call=MS,input-token=MS,output-token=MS,tool=MS', "the file's, else none written"))
      .addOption(option(command, '--max-output-tokens <n>', "the max_tokens each call sends: a synthetic agent's provider cuts a longer answer there, and refuses a prompt + max_tokens past the model's window", '4096'))
      .addOption(option(command, '--out <file>', 'write the traces here (atomically): a .jsonl name, or .jsonl.gz for gzip', 'stdout'));
    addPriceOptions(addScenarioOptions(command, true), 'written').action(async (scenario: string, opts: GenerateFlags) => {
      const { generateAction } = await import('../actions/generate.js');
      setExitCode(await generateAction(scenario, opts, io, givenOptions(command)));
    });
  },
};
export default generate;
