import type { ApiInput, ApiMethodName, ApiOutput } from '../../../shared/api.js';
import type { CliCommand } from './types.js';

/**
 * A command without arguments that asks the API one thing and prints the answer: the answer
 * itself with --json, `text(answer)` for people. Most commands that only show or switch
 * something are this; its usage line is its name.
 */
export function apiCommand<M extends ApiMethodName>(
  about: Pick<CliCommand, 'name' | 'summary'>,
  method: M,
  input: ApiInput<M>,
  text: (out: ApiOutput<M>) => string,
): CliCommand {
  return {
    ...about,
    usage: about.name,
    flags: {},
    positionals: { min: 0, max: 0, names: '' },
    async run(io) {
      const out = await io.invoke(method, input);
      return { json: out, text: text(out) };
    },
  };
}
