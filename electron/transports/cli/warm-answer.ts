import { Readable, Writable } from 'node:stream';
import { WARM_PROTOCOL_VERSION, type WarmReply, type WarmRequest } from '../../../shared/warm-protocol.js';
import { withEffectsGate } from '../../agents/hooks/effects-gate.js';
import { startWarmServer, type WarmCall, type WarmServer } from '../warm/server.js';
import { configFollower, type AnsweringProject } from './warm-config.js';
import type { WarmPlace, WarmProject } from './warm-place.js';

/**
 * Serves warm answers for an open project (docs/agents.md "Warm answers"): a one-shot
 * `memdesk recall`, `hook`, `list` or `search` of this home and project is run here by the same
 * CLI code (runCli, the same command and handlers) over this process's notes, which its watcher
 * keeps current — or, after a config.json edit, over the project opened again with the new config
 * (warm-config.ts). null when the process cannot serve (no private directory); it then simply does not.
 */
export async function serveWarm(place: WarmPlace, project: WarmProject): Promise<WarmServer | null> {
  const projects = configFollower(place, project);
  try {
    const server = await startWarmServer({ ...place, answer: warmAnswer(place, projects) });
    if (!server) await projects.close();
    return (
      server && {
        socket: server.socket,
        async close() {
          await server.close();
          await projects.close();
        },
      }
    );
  } catch {
    await projects.close();
    return null; // no socket here (a path too long, a full disk): one-shot commands run cold
  }
}

function warmAnswer(
  place: WarmPlace,
  projects: { use<T>(fn: (project: AnsweringProject) => Promise<T>): Promise<T> },
): (request: WarmRequest, call: WarmCall) => Promise<WarmReply> {
  return (request, call) =>
    projects.use(async (project) => {
      if (!project)
        return {
          v: WARM_PROTOCOL_VERSION,
          status: 'cold',
          reason: 'the project does not open with its new config',
        };
      await project.ctx.core.settle();
      // A hook asks before its first lasting change; the caller either still waits (and will not
      // run it cold) or has gone (nothing is changed here; it runs cold).
      let refused = false;
      const gate = {
        mayStart: async () => {
          const granted = await call.claim();
          if (!granted) refused = true;
          return granted;
        },
      };
      const out = collector();
      const err = collector();
      const exitCode = await withEffectsGate(gate, () =>
        place.run({
          argv: [
            '--home',
            place.home,
            '--project',
            place.projectRoot,
            ...(request.json ? ['--json'] : []),
            ...request.args,
          ],
          stdin: stdinOf(request.stdin),
          stdout: out.stream,
          stderr: err.stream,
          env: place.env,
          cwd: place.projectRoot,
          openHandlers: project.handlers,
        }),
      );
      if (refused)
        return {
          v: WARM_PROTOCOL_VERSION,
          status: 'cold',
          reason: 'the caller gave up first; nothing changed',
        };
      return { v: WARM_PROTOCOL_VERSION, status: 'answer', exitCode, stdout: out.text(), stderr: err.text() };
    });
}

/** The client's stdin as the command reads it: its text, or a terminal (nothing piped). */
function stdinOf(text: string | null): Readable & { isTTY?: boolean } {
  if (text !== null) return Readable.from([Buffer.from(text)]);
  return Object.assign(Readable.from([]), { isTTY: true });
}

function collector(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * For a process that switches projects (the desktop app): call after every open; the warm server
 * then always answers for the project that is open now. `stop` before the project closes.
 */
export function warmFollower(
  place: Omit<WarmPlace, 'projectRoot'>,
  open: () => WarmProject | null,
): { follow(): Promise<void>; stop(): Promise<void> } {
  let server: WarmServer | null = null;
  const stop = async (): Promise<void> => {
    const old = server;
    server = null;
    await old?.close();
  };
  return {
    stop,
    async follow() {
      await stop();
      const project = open();
      const projectRoot = project?.ctx.core.project?.root;
      if (project && projectRoot) server = await serveWarm({ ...place, projectRoot }, project);
    },
  };
}
