import { AppError } from '../../../../shared/errors.js';
import type { SemanticSettings, SemanticStatus } from '../../../../shared/api/semantic.js';
import { stringFlag } from '../args.js';
import { UsageError, type CliCommand, type CliIo, type ParsedArgs } from '../types.js';
import { flagCommand } from './flag-command.js';

/**
 * `memdesk semantic …`: semantic recall's settings from a terminal, over the same API methods as
 * the app's panel (renderer/settings/SemanticRecallPanel.tsx). The API key is read from stdin only
 * (`--key-stdin`): never from argv (other users can read a process's arguments), never printed.
 */

/** The key piped in: its first line, trimmed. A terminal is refused: typed there, it would show. */
async function keyFromStdin(io: CliIo): Promise<string> {
  const text = await io.readStdin();
  if (text === null)
    throw new UsageError('--key-stdin: pipe the key in (e.g. `< keyfile`); it is not read from a terminal');
  const key = (text.split(/\r?\n/)[0] ?? '').trim();
  if (!key) throw new UsageError('--key-stdin: nothing on stdin');
  return key;
}

/** undefined keeps the stored key, null removes it. */
async function keyOf(io: CliIo, args: ParsedArgs): Promise<string | null | undefined> {
  if (args.flags['key-stdin'] === true && args.flags['no-key'] === true)
    throw new UsageError('give --key-stdin or --no-key, not both');
  if (args.flags['key-stdin'] === true) return keyFromStdin(io);
  return args.flags['no-key'] === true ? null : undefined;
}

const time = (ms: number) => new Date(ms).toISOString();

function settingsLines(s: SemanticSettings): string[] {
  const state = s.active ? 'on' : s.enabled ? 'on, but not configured' : 'off';
  return [
    `semantic recall: ${state}`,
    `endpoint: ${s.baseUrl ?? '(none)'}`,
    `model: ${s.model ?? '(none)'}`,
    `API key: ${s.hasApiKey ? 'set' : 'none'}`,
  ];
}

function statusLines(st: SemanticStatus): string[] {
  if (!st.active) return [];
  const lines = [
    `notes embedded: ${st.embedded} of ${st.notes} (the rest are embedded as searches and recalls run)`,
    `last update: ${st.updatedAt === null ? 'never' : time(st.updatedAt)}`,
  ];
  if (st.downSince !== null)
    lines.push(`endpoint down since ${time(st.downSince)}: recall is by words until it answers`);
  return lines;
}

/** `semantic on` / `semantic off`: the switch alone; endpoint, model and key stay as saved. */
function switchCommand(enabled: boolean, summary: string): CliCommand {
  const name = `semantic ${enabled ? 'on' : 'off'}`;
  return flagCommand({
    name,
    summary,
    async run(io) {
      const current = await io.invoke('semantic.settings', {});
      if (enabled && (current.baseUrl === null || current.model === null))
        throw new AppError(
          'invalid_input',
          'no embeddings endpoint is configured: run `memdesk semantic configure --url URL --model NAME` first',
        );
      const out = await io.invoke('semantic.configure', {
        enabled,
        baseUrl: current.baseUrl,
        model: current.model,
      });
      return { json: out, text: settingsLines(out).join('\n') };
    },
  });
}

export const semanticCommands: CliCommand[] = [
  flagCommand({
    name: 'semantic status',
    summary:
      'Semantic recall: on or off, the embeddings endpoint and model, notes embedded, last update, outage.',
    async run(io) {
      const settings = await io.invoke('semantic.settings', {});
      const status = await io.invoke('semantic.status', {});
      return {
        json: { settings, status },
        text: [...settingsLines(settings), ...statusLines(status)].join('\n'),
      };
    },
  }),
  switchCommand(true, 'Turn semantic recall on with the configured endpoint and model.'),
  switchCommand(false, 'Turn semantic recall off (recall by words alone); the endpoint settings are kept.'),
  flagCommand({
    name: 'semantic configure',
    usage: 'semantic configure --url URL --model NAME [--key-stdin | --no-key]',
    summary:
      'Set the OpenAI-compatible embeddings endpoint and model (on/off unchanged); the API key is read from stdin, never from the command line.',
    flags: { url: 'string', model: 'string', 'key-stdin': 'boolean', 'no-key': 'boolean' },
    async run(io, args) {
      const baseUrl = stringFlag(args, 'url');
      const model = stringFlag(args, 'model');
      if (!baseUrl || !model) throw new UsageError('semantic configure needs --url URL and --model NAME');
      const apiKey = await keyOf(io, args);
      const current = await io.invoke('semantic.settings', {});
      const out = await io.invoke('semantic.configure', {
        enabled: current.enabled,
        baseUrl,
        model,
        ...(apiKey !== undefined ? { apiKey } : {}),
      });
      return {
        json: out,
        text: settingsLines(out).join('\n'),
        ...(out.enabled ? {} : { notices: ['semantic recall is off: `memdesk semantic on` turns it on'] }),
      };
    },
  }),
  flagCommand({
    name: 'semantic test',
    usage: 'semantic test [--url URL --model NAME] [--key-stdin]',
    summary:
      'One embeddings call to the given (else the saved) endpoint and model, without saving anything; exit 1 when it fails.',
    flags: { url: 'string', model: 'string', 'key-stdin': 'boolean' },
    async run(io, args) {
      let baseUrl = stringFlag(args, 'url');
      let model = stringFlag(args, 'model');
      if (!baseUrl !== !model) throw new UsageError('semantic test: give both --url and --model, or neither');
      if (!baseUrl || !model) {
        const saved = await io.invoke('semantic.settings', {});
        if (saved.baseUrl === null || saved.model === null)
          throw new UsageError('semantic test: nothing saved to test; give --url URL and --model NAME');
        baseUrl = saved.baseUrl;
        model = saved.model;
      }
      const apiKey = args.flags['key-stdin'] === true ? await keyFromStdin(io) : undefined;
      const out = await io.invoke('semantic.testConnection', {
        baseUrl,
        model,
        ...(apiKey !== undefined ? { apiKey } : {}),
      });
      if (!out.ok)
        throw new AppError(
          'unavailable',
          `the embeddings endpoint test failed (${out.problem}): ${out.message}`,
        );
      return {
        json: out,
        text: `connected: ${baseUrl} (${model}) answered a vector of ${out.dimensions} numbers`,
      };
    },
  }),
];
