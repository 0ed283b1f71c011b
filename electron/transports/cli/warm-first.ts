import { Readable } from 'node:stream';
import { WARM_COMMANDS, type WarmRequest } from '../../../shared/warm-protocol.js';
import type { Harness } from '../../../shared/api/agents-connect.js';
import { CONTRACTS } from '../../agents/hooks/contracts.js';
import { askWarm } from '../warm/client.js';
import { homeOf, parseGlobals, projectRootOf } from './globals.js';
import type { CliEnv } from './run.js';

/**
 * The first step of a one-shot `memdesk recall`, `hook`, `list` or `search`, taken by the bin before
 * the rest of the CLI loads: ask the long-running memdesk process of the same home and project for the
 * answer (electron/transports/warm, docs/agents.md "Warm answers"). Its module graph is a few small
 * files and zod/mini (test/cli/lazy-load.test.ts): when no warm process answers, the cold path
 * loads everything as before.
 *
 * Returns the exit code when the answer was printed; otherwise the stdin to run cold with (a
 * hook's input, already read here, passed on unchanged) and why a warm process that was there did
 * not answer (logged by the cold path, which loads the log's code anyway). This file is bundled
 * on its own (scripts/build-cli.ts): it must not import what the cold path imports.
 */
export async function answerWarm(
  env: CliEnv,
): Promise<{ exitCode: number } | Pick<CliEnv, 'stdin' | 'warmMiss'>> {
  const untouched = { stdin: env.stdin };
  let globals;
  try {
    globals = parseGlobals(env.argv);
  } catch {
    return untouched; // a usage error: the cold path says it
  }
  const command = globals.rest[0] as WarmRequest['command'];
  if (globals.help || globals.version || !(WARM_COMMANDS as readonly string[]).includes(command))
    return untouched;
  // `search --stdin` answers each line as it comes (a caller may wait for one before writing the
  // next): a warm answer would need the whole input first, so it runs cold.
  if (command === 'search' && globals.rest.some((a) => a === '--stdin' || a.startsWith('--stdin=')))
    return untouched;
  const home = homeOf(globals, env.cwd, env.env);
  // A hook's input is read here once and handed to whichever path answers.
  const stdin = command === 'hook' && !env.stdin.isTTY ? await readAll(env.stdin) : null;
  // A hook answers from the session's project (answer-hook.ts), which its input names: harnesses
  // do not all run hooks in the session's directory.
  const projectRoot =
    (command === 'hook' ? sessionProject(globals.rest[1], stdin) : null) ?? projectRootOf(globals, env.cwd);
  const outcome = await askWarm({
    home,
    projectRoot,
    env: env.env,
    command,
    args: globals.rest,
    json: globals.json,
    stdin,
  });
  if (outcome.status === 'answer') {
    await write(env.stdout, outcome.stdout);
    await write(env.stderr, outcome.stderr);
    return { exitCode: outcome.exitCode };
  }
  // Never the message itself in the log line: `recall`, or `hook <harness> <event>`.
  const what = command === 'hook' ? globals.rest.slice(0, 3).join(' ') : command;
  if (outcome.status === 'unanswered') {
    // The server made the hook's changes and then did not answer: running it cold would count
    // it twice, so the hook gives its empty answer, as one past its time budget does.
    const [, harness, event] = globals.rest;
    if (harness && Object.hasOwn(CONTRACTS, harness) && event) {
      await write(env.stdout, printed(CONTRACTS[harness as Harness].render(event, {}), globals.json));
      const { logHookProblem } = await import('../../agents/hooks/hook-log.js');
      await logHookProblem(home, Date.now(), `warm ${what}`, `answered empty: ${outcome.reason}`);
      return { exitCode: 0 };
    }
  }
  return {
    stdin: stdin === null ? env.stdin : Readable.from([Buffer.from(stdin)]),
    ...(outcome.reason !== null ? { warmMiss: { home, where: `warm ${what}`, reason: outcome.reason } } : {}),
  };
}

/** A hook's output as runCli prints it (run.ts): the JSON document with --json, else the text and a newline. */
function printed(output: string, json: boolean): string {
  if (json) return JSON.stringify(output ? (JSON.parse(output) as unknown) : null, null, 2) + '\n';
  return output && !output.endsWith('\n') ? output + '\n' : output;
}

/** The project of the session a hook input names (its cwd or workspace), or null. */
function sessionProject(harness: string | undefined, stdin: string | null): string | null {
  if (!harness || !stdin || !Object.hasOwn(CONTRACTS, harness)) return null;
  try {
    const payload: unknown = JSON.parse(stdin);
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null;
    const cwd = CONTRACTS[harness as Harness].read(payload as Record<string, unknown>).cwd;
    return cwd ? projectRootOf({ json: false, help: false, version: false, rest: [] }, cwd) : null;
  } catch {
    return null; // not JSON: the cold path logs it
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => (text ? stream.write(text, () => resolve()) : resolve()));
}
