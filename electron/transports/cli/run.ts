import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { AppError, toErrorBody } from '../../../shared/errors.js';
import type { AppEvent } from '../../../shared/events.js';
import type { ApiHandlers } from '../../api/dispatch.js';
import type { AppRoot } from '../../app/app-root.js';
import type { OpenProject } from '../../app/open-project.js';
import type { McpFront } from '../mcp/front.js';
import { parseArgs } from './args.js';
import { homeOf, parseGlobals, projectRootOf } from './globals.js';
import { allCommands, cliCommandIndex, loadCommand } from './commands/index.js';
import { ExitCodeError } from './exit-code-error.js';
import { USAGE_EXIT_CODE, UsageError, type CliCommand, type CliIo } from './types.js';

/**
 * The `memdesk` CLI: a transport over the API table. It maps argv to a method's input and the
 * output to text or (with --json) one JSON document. Exit codes: 0 ok, 1 refused or invalid input
 * (or any other error the core reports), 2 usage, 3 and 4 a device sign-in denied or expired
 * (ExitCodeError). Errors: one line on stderr; with --json also
 * `{"error":{"code","message"}}` on stdout.
 */
export interface CliEnv {
  argv: string[];
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  cwd: string;
  /** `memdesk mcp`'s first steps, taken by the bin before this module loaded (mcp-first.ts). */
  mcpFront?: McpFront;
  /**
   * A warm answer (warm-answer.ts): the handlers of the project this long-running process has
   * open, used instead of opening the notes; left open at the end.
   */
  openHandlers?: ApiHandlers;
  /** Why the warm process that was advertised did not answer (warm-first.ts): one line in the hook log. */
  warmMiss?: { home: string; where: string; reason: string };
  /** The bundled CLI's build (its file's content hash), when run from the bundle: ProjectOptions.analyzerBuild. */
  build?: string;
}

const GLOBAL_USAGE = 'memdesk [--home DIR] [--project DIR] [--json] <command> [options]';

/** The command the first one or two words name; only that command's file is loaded. */
async function findCommand(words: string[]): Promise<{ command: CliCommand; rest: string[] } | null> {
  const two = `${words[0]} ${words[1]}`;
  const used = cliCommandIndex.some(([name]) => name === two) ? 2 : 1;
  const name = words.slice(0, used).join(' ');
  if (!cliCommandIndex.some(([n]) => n === name)) return null;
  return { command: await loadCommand(name), rest: words.slice(used) };
}

export async function helpText(): Promise<string> {
  const cliCommands = await allCommands();
  const width = Math.max(...cliCommands.map((c) => c.usage.length));
  const lines = [
    "Memory Desk — look after your AI agent's Markdown memory notes.",
    '',
    `usage: ${GLOBAL_USAGE}`,
    '',
    'global options:',
    '  --home DIR      the Memory Desk home (default: $OHARNESS_HOME, then ~/.oharness)',
    '  --project DIR   the project (default: the nearest directory upwards with .oharness/project.json, else the current one)',
    '  --json          print one JSON document (errors: {"error":{"code","message"}})',
    '  --help          this help; `memdesk <command> --help` for one command',
    '',
    'commands:',
    ...cliCommands.map((c) =>
      c.usage.length > 60
        ? `  ${c.usage}\n  ${''.padEnd(Math.min(width, 60))}  ${c.summary}`
        : `  ${c.usage.padEnd(Math.min(width, 60))}  ${c.summary}`,
    ),
    '',
    'exit codes: 0 ok, 1 refused or invalid input, 2 usage, 3/4 login --device denied/expired. See docs/cli.md.',
  ];
  return lines.join('\n') + '\n';
}

function commandHelp(c: CliCommand): string {
  return `usage: memdesk [global options] ${c.usage}\n\n${c.summary}\n`;
}

export async function runCli(env: CliEnv): Promise<number> {
  const { stdout, stderr } = env;
  let json = env.argv.includes('--json');
  let commandName = '';
  /** This run's composition root: its sync engine is built only if a command syncs. */
  let appRoot: AppRoot | null = null;
  /** The project being opened, if a command asked for it: waited for before closing it. */
  let closing: () => Promise<OpenProject> | null = () => null;
  /** Stops this process's warm server, if it started one. */
  let stopWarm = async (): Promise<void> => {};
  try {
    if (env.warmMiss) {
      const { logHookProblem } = await import('../../agents/hooks/hook-log.js');
      const { home, where, reason } = env.warmMiss;
      await logHookProblem(home, Date.now(), where, `answered cold: ${reason}`);
    }
    const globals = parseGlobals(env.argv);
    json = globals.json;
    if (globals.version) {
      stdout.write(
        json ? JSON.stringify({ version: await packageVersion() }) + '\n' : `${await packageVersion()}\n`,
      );
      return 0;
    }
    const words = globals.rest;
    if (words[0] === 'help') {
      const found = words.length > 1 ? await findCommand(words.slice(1)) : null;
      stdout.write(found ? commandHelp(found.command) : await helpText());
      return 0;
    }
    if (words.length === 0) {
      if (globals.help) {
        stdout.write(await helpText());
        return 0;
      }
      throw new UsageError('no command given');
    }
    const found = await findCommand(words);
    if (!found) throw new UsageError(`unknown command "${words[0]}"`);
    const { command, rest } = found;
    commandName = command.name;
    if (globals.help) {
      stdout.write(commandHelp(command));
      return 0;
    }
    const args = parseArgs(rest, command.flags, command.name);
    if (
      args.positionals.length < command.positionals.min ||
      args.positionals.length > command.positionals.max
    ) {
      throw new UsageError(
        command.positionals.max === 0
          ? `${command.name} takes no arguments (got "${args.positionals.join(' ')}")`
          : `${command.name} needs ${command.positionals.names}`,
      );
    }
    const home = homeOf(globals, env.cwd, env.env);
    const root = projectRootOf(globals, env.cwd);
    // The notes are loaded on the command's first API call, not before: `memdesk mcp` answers
    // initialize first (docs/performance.md).
    let opened: Promise<OpenProject> | null = null;
    const listeners = new Set<(event: AppEvent) => void>();
    const { openHandlers } = env;
    const handlersOnce = async (): Promise<ApiHandlers> =>
      openHandlers ??
      (
        await (opened ??= (async () => {
          const { createAppRoot } = await import('../../app/app-root.js');
          appRoot = createAppRoot({
            home,
            env: env.env,
            emit: (event) => listeners.forEach((l) => l(event)),
            // `memdesk mcp` runs as long as the agent's session: it takes part in "one sync owner
            // per home" (syncs while it owns sync, nudges the owner otherwise). Other commands
            // sync what they wrote before exiting (runCli's finally).
            ...(command.longRunning
              ? {
                  sync: {
                    autoStart: true,
                    // Its stderr is the MCP client's log: why sync waits, if it does.
                    owner: { role: 'mcp', say: (line: string) => stderr.write(line + '\n') },
                  },
                  syncOnOpen: true,
                }
              : {}),
            // Sign-in in the browser (memdesk login): the person opens the printed URL (RFC 8252).
            openExternal: (url) => {
              stderr.write(
                `Open this address in your browser to sign in (waiting up to 10 minutes):\n  ${url}\n`,
              );
            },
          });
          const project = await appRoot.open({
            projectRoot: root,
            cwd: env.cwd,
            // `memdesk mcp` answers nothing but initialize (from its snapshot) before the notes
            // are in: its first load reads synchronously (~3× less CPU; docs/performance.md).
            ...(command.longRunning ? { watch: true, syncFirstLoad: true } : {}),
            ...(env.build ? { analyzerBuild: env.build } : {}),
          });
          // A long-running process answers the one-shot recall, hook, list and search commands
          // of this home and project warm (warm-answer.ts); it stops before the project closes.
          if (command.longRunning) {
            const { serveWarm } = await import('./warm-answer.js');
            const warm = await serveWarm(
              { home, projectRoot: root, env: env.env, processEnv: env.env, run: runCli, services: appRoot },
              project,
            );
            if (warm) stopWarm = () => warm.close();
          }
          return project;
        })())
      ).handlers;
    closing = () => opened;
    const io: CliIo = {
      json,
      place: { home, projectRoot: root, env: env.env },
      invoke: async (method, input) => {
        const { invokeApi } = await import('../../api/dispatch.js');
        return (await invokeApi(await handlersOnce(), method, input)) as never;
      },
      open: async () => void (await handlersOnce()),
      readStdin: () => readAll(env.stdin),
      stdinLines: () => createInterface({ input: env.stdin, crlfDelay: Infinity }),
      readFile: (file) => fs.readFile(path.resolve(env.cwd, file), 'utf8'),
      out: (text) => stdout.write(text),
      note: (line) => stderr.write(line + '\n'),
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      ...(env.mcpFront ? { mcpFront: env.mcpFront } : {}),
    };
    const result = await command.run(io, args);
    if (!result.streamed) {
      if (json) stdout.write(JSON.stringify(result.json, null, 2) + '\n');
      else {
        if (result.text) stdout.write(result.text.endsWith('\n') ? result.text : result.text + '\n');
        for (const notice of result.notices ?? []) stderr.write(notice + '\n');
      }
    }
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError;
    const body = usage
      ? { error: { code: 'invalid_input' as const, message: err.message } }
      : toErrorBody(err);
    const hint = usage ? ` (see: memdesk ${commandName ? `${commandName} ` : ''}--help)` : '';
    stderr.write(`memdesk: ${body.error.message.replace(/\s*\n\s*/g, ' ')}${hint}\n`);
    if (json)
      stdout.write(JSON.stringify({ error: { code: body.error.code, message: body.error.message } }) + '\n');
    if (!usage && !(err instanceof AppError) && env.env.MEMDESK_DEBUG)
      stderr.write(`${(err as Error).stack}\n`);
    return usage ? USAGE_EXIT_CODE : err instanceof ExitCodeError ? err.exitCode : 1;
  } finally {
    const project = await closing()?.catch(() => null); // a failed open is this command's error, reported above
    await stopWarm();
    // Notes this run wrote reach the cloud: handed to the running owner, or one bounded round.
    if (project) await (appRoot as AppRoot | null)?.syncBeforeExit().catch(() => null);
    await project?.close();
    // Set inside handlersOnce: TypeScript cannot see that assignment from here.
    await (appRoot as AppRoot | null)?.stop();
  }
}

async function readAll(stream: Readable & { isTTY?: boolean }): Promise<string | null> {
  if (stream.isTTY) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function packageVersion(): Promise<string> {
  // The bundle (dist/cli) is two levels below the package root, the sources three, tsc's output four.
  for (const up of ['../../package.json', '../../../package.json', '../../../../package.json']) {
    try {
      const pkg = JSON.parse(await fs.readFile(new URL(up, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'memory-desk' && pkg.version) return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return 'unknown';
}
