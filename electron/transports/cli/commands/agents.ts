import path from 'node:path';
import { AppError } from '../../../../shared/errors.js';
import { parseJsonText } from '../../../../shared/parse-json.js';
import { NO_ARGS, oneArg, SCOPE_FLAG, scopeFlag, stringFlag } from '../args.js';
import { UsageError, type CliCommand, type ParsedArgs } from '../types.js';

/** retain, mcp, export, import, import mnemopi (docs/agents.md). */

function requiredScope(args: ParsedArgs, command: string): 'project' | 'user' {
  const scope = scopeFlag(args);
  if (!scope) throw new UsageError(`${command} needs --scope project|user`);
  return scope;
}

function warningLines(warnings: Array<{ message: string }>): string[] {
  return warnings.map((w) => `warning: ${w.message}`);
}

function parseRetainStdin(text: string | null): unknown {
  if (text === null || !text.trim())
    throw new UsageError('retain reads {"items":[{"content":"…","context":"…"}]} on stdin');
  const data = parseJsonText(
    text,
    (reason) =>
      new AppError(
        'invalid_input',
        `retain: stdin is not valid JSON (${reason}); expected {"items":[{"content":"…"}]}`,
      ),
  );
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new AppError('invalid_input', 'retain: stdin must be a JSON object {"items":[…]}');
  }
  return (data as { items?: unknown }).items;
}

export const agentsCommands: CliCommand[] = [
  {
    name: 'retain',
    usage:
      'retain [--bank-scope global|per-project|per-project-tagged]   < {"items":[{"content":"…","context":"…"}]}',
    summary:
      'Store facts read as JSON on stdin; prints {"receipts":[…]}: one receipt per item, in order, once it is on disk.',
    flags: { 'bank-scope': 'string' },
    positionals: NO_ARGS,
    async run(io, args) {
      const items = parseRetainStdin(await io.readStdin());
      const bankScope = stringFlag(args, 'bank-scope');
      const out = await io.invoke('agents.retain', {
        items: items as never,
        ...(bankScope !== undefined ? { bankScope: bankScope as never } : {}),
      });
      // Agents read this: always the JSON document, warnings on stderr.
      return { json: out, text: JSON.stringify(out, null, 2), notices: warningLines(out.warnings) };
    },
  },
  {
    name: 'mcp',
    usage: 'mcp',
    summary:
      'Serve the memory tools (remember, memory, forget, recall, retain) to an agent over MCP on stdin/stdout.',
    flags: {},
    positionals: NO_ARGS,
    longRunning: true,
    async run(io) {
      // The MCP SDK (with ajv and zod-to-json-schema) is loaded only by this command, and only after
      // initialize was answered (mcp/start.ts). The bin usually started the front already.
      const [{ serveMcp }, front] = await Promise.all([
        import('../../mcp/start.js'),
        io.mcpFront ??
          import('../mcp-first.js').then(({ mcpFront }) => mcpFront(process.stdin, process.stdout, io.place)),
      ]);
      await serveMcp((method, input) => io.invoke(method, input), front, {
        load: () => io.open(),
        onChange: (listener) => io.subscribe((event) => event.type === 'notes.changed' && listener()),
      });
      return { json: null, text: '', streamed: true };
    },
  },
  {
    name: 'export',
    usage: 'export --scope project|user --out FILE.zip',
    summary: 'Write every note file of a scope, byte for byte, into a new zip file.',
    flags: { scope: 'string', out: 'string' },
    positionals: NO_ARGS,
    async run(io, args) {
      const scope = requiredScope(args, 'export');
      const out = stringFlag(args, 'out');
      if (!out) throw new UsageError('export needs --out FILE.zip');
      const result = await io.invoke('agents.export', { scope, out: path.resolve(out) });
      return {
        json: result,
        text: `exported ${result.notes} note${result.notes === 1 ? '' : 's'} (${result.scope}) to ${result.path}`,
      };
    },
  },
  {
    name: 'import mnemopi',
    usage: 'import mnemopi DB_PATH [--scope user|project]',
    summary:
      'Import an oh-my-pi Mnemopi bank (a .db file, or a data directory with banks/) as notes (user scope unless --scope).',
    flags: SCOPE_FLAG,
    positionals: oneArg('DB_PATH (a Mnemopi .db file or data directory)'),
    async run(io, args) {
      const scope = scopeFlag(args) ?? 'user';
      const result = await io.invoke('agents.importMnemopi', {
        path: path.resolve(args.positionals[0]!),
        scope,
      });
      const lines = result.banks.map((b) =>
        b.status === 'imported'
          ? `${b.bank}: imported ${b.imported}, skipped ${b.skippedRows} (${b.path})`
          : `${b.bank}: skipped — ${b.reason ?? 'unknown reason'} (${b.path})`,
      );
      const problems = result.banks.flatMap((b) => b.problems.map((p) => `warning: ${b.bank}: ${p}`));
      lines.push(
        `${result.imported} note${result.imported === 1 ? '' : 's'} imported into the ${result.scope} scope`,
      );
      return { json: result, text: lines.join('\n'), notices: problems };
    },
  },
  {
    name: 'import',
    usage: 'import FILE.zip --scope project|user [--on-collision skip|keep-both]',
    summary:
      'Import the notes of an export zip; a note whose id exists is skipped (default) or kept under a new id.',
    flags: { scope: 'string', 'on-collision': 'string' },
    positionals: oneArg('FILE.zip'),
    async run(io, args) {
      const scope = requiredScope(args, 'import');
      const onCollision = stringFlag(args, 'on-collision') ?? 'skip';
      if (onCollision !== 'skip' && onCollision !== 'keep-both')
        throw new UsageError(`--on-collision must be "skip" or "keep-both", not "${onCollision}"`);
      const result = await io.invoke('agents.import', {
        file: path.resolve(args.positionals[0]!),
        scope,
        onCollision,
      });
      const lines = [
        `imported ${result.imported.length} note${result.imported.length === 1 ? '' : 's'} into the ${result.scope} scope`,
        ...result.imported
          .filter((i) => i.renamedFrom)
          .map((i) => `  ${i.renamedFrom} → ${i.id} (kept both)`),
        ...result.skipped.map((s) => `skipped ${s.entry}: ${s.reason}`),
      ];
      return {
        json: result,
        text: lines.join('\n'),
        notices: result.refused.map((r) => `${r.entry}: ${r.reason}`),
      };
    },
  },
];
