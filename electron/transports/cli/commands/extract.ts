import path from 'node:path';
import { NO_ARGS, stringFlag } from '../args.js';
import { UsageError, type CliCommand } from '../types.js';
import { harnessArg } from './hook.js';

const TRIGGERS = ['manual', 'stop', 'compact'] as const;

/** `memdesk extract --transcript FILE`: facts worth keeping from a conversation, through retain. */
export const extractCommand: CliCommand = {
  name: 'extract',
  usage: 'extract --transcript FILE [--trigger manual|stop|compact] [--session ID] [--harness H]',
  summary:
    'Ask the configured model (the one 生成合并建议 uses) for facts worth keeping in an agent transcript; each is stored through retain, one receipt each.',
  flags: { transcript: 'string', trigger: 'string', session: 'string', harness: 'string' },
  positionals: NO_ARGS,
  async run(io, args) {
    const transcript = stringFlag(args, 'transcript');
    if (!transcript) throw new UsageError('extract needs --transcript FILE');
    const trigger = stringFlag(args, 'trigger') ?? 'manual';
    if (!(TRIGGERS as readonly string[]).includes(trigger))
      throw new UsageError(`--trigger must be one of ${TRIGGERS.join(', ')}, not "${trigger}"`);
    const session = stringFlag(args, 'session');
    const harness = stringFlag(args, 'harness');
    const out = await io.invoke('agents.extract', {
      transcript: path.resolve(transcript),
      trigger: trigger as (typeof TRIGGERS)[number],
      ...(session ? { sessionId: session } : {}),
      ...(harness ? { harness: harnessArg(harness) } : {}),
    });
    const lines =
      out.status === 'saved'
        ? [
            `saved ${out.saved} ${out.saved === 1 ? 'memory' : 'memories'} from this conversation`,
            ...out.receipts.map(
              (r) => `  ${r.status}${r.id ? ` ${r.id}` : ''}${r.reason ? ` — ${r.reason}` : ''}`,
            ),
          ]
        : [`${out.status}: ${out.reason ?? ''}`];
    return { json: out, text: lines.join('\n') };
  },
};

export const extractCommands: CliCommand[] = [extractCommand];
