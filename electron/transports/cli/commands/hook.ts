import { HARNESSES, type Harness } from '../../../../shared/api/agents-connect.js';
import { UsageError, type CliCommand } from '../types.js';

export function harnessArg(value: string | undefined): Harness {
  if (!value || !(HARNESSES as readonly string[]).includes(value))
    throw new UsageError(
      `the harness must be one of ${HARNESSES.join(', ')}${value ? `, not "${value}"` : ''}`,
    );
  return value as Harness;
}

/** `memdesk hook <harness> <event>`: the harness's hook JSON on stdin, its answer on stdout. */
export const hookCommand: CliCommand = {
  name: 'hook',
  usage: 'hook <harness> <event>   < the hook input JSON',
  summary:
    "Answer an agent harness's hook (claude-code, codex, gemini, cursor) in its own format: the memory index at session start, recalled notes for a prompt, extraction at stop. Never blocks the agent.",
  flags: {},
  positionals: { min: 2, max: 2, names: 'HARNESS EVENT (e.g. claude-code UserPromptSubmit)' },
  async run(io, args) {
    const name = args.positionals[0]!;
    const event = args.positionals[1]!;
    // Exit code 2 blocks a prompt in Claude Code: a hook answers empty (exit 0) even to a bad name.
    if (!(HARNESSES as readonly string[]).includes(name))
      return {
        json: null,
        text: '',
        notices: [`memdesk: unknown harness "${name}" (${HARNESSES.join(', ')}); answered empty`],
      };
    const harness = name as Harness;
    // The raw text: the hook service parses it, so bad input is logged and answered empty.
    const payload = (await io.readStdin()) ?? '';
    // Hooks that need no note (Cursor's prompt hook, Stop with extraction off) are answered without
    // opening the notes: the person or the harness is waiting (without-notes.ts).
    const { answerWithoutNotes } = await import('../../../agents/hooks/without-notes.js');
    const call = { harness, event, payload };
    const { output } =
      (await answerWithoutNotes(io.place.home, io.place.env, call)) ?? (await io.invoke('agents.hook', call));
    return { json: output ? (JSON.parse(output) as unknown) : null, text: output };
  },
};

export const hookCommands: CliCommand[] = [hookCommand];
