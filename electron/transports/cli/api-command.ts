import type { ApiInput, ApiMethodName, ApiOutput } from '../../../shared/api.js';
import { NO_ARGS } from './args.js';
import type { CliCommand, CliIo, ParsedArgs } from './types.js';

/**
 * A command that asks the API one thing and prints the answer: the answer itself with --json,
 * `text(answer)` for people. Most commands that only show or switch something are this. Without
 * arguments (the default) its usage line is its name and its input is fixed; a command that takes
 * some says so in `about` and builds its input from them (`show ID` → `{id}`, files it reads).
 */
export function apiCommand<M extends ApiMethodName>(
  about: Pick<CliCommand, 'name' | 'summary'> & Partial<Pick<CliCommand, 'usage' | 'flags' | 'positionals'>>,
  method: M,
  input: ApiInput<M> | ((args: ParsedArgs, io: CliIo) => ApiInput<M> | Promise<ApiInput<M>>),
  text: (out: ApiOutput<M>) => string,
): CliCommand {
  return {
    usage: about.name,
    flags: {},
    positionals: NO_ARGS,
    ...about,
    async run(io, args) {
      const out = await io.invoke(method, typeof input === 'function' ? await input(args, io) : input);
      return { json: out, text: text(out) };
    },
  };
}
