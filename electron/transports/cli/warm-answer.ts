import { statSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { WARM_PROTOCOL_VERSION, type WarmReply, type WarmRequest } from '../../../shared/warm-protocol.js';
import type { OpenProject } from '../../app/open-project.js';
import { withEffectsGate } from '../../agents/hooks/effects-gate.js';
import { projectConfigPath, userConfigPath } from '../../memory/config.js';
import { WARM_EFFECTS_DEADLINE_MS } from '../warm/client.js';
import { startWarmServer, type WarmCall, type WarmServer } from '../warm/server.js';

export interface WarmPlace {
  home: string;
  projectRoot: string;
  /** The environment the project was opened with (config overrides). */
  env: Record<string, string | undefined>;
  /** The process's own environment (where advertisements go); the same as `env` for the CLI. */
  processEnv: Record<string, string | undefined>;
  /**
   * The CLI's runCli, passed in by whoever serves (run.ts, the bridge, the app) so that this file
   * does not import run.ts, which loads this one for `memdesk mcp`.
   */
  run: WarmRun;
}

/** What a warm answer runs: the CLI over the open project's handlers (runCli fits). */
export type WarmRun = (env: {
  argv: string[];
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  cwd: string;
  openHandlers: WarmProject['handlers'];
}) => Promise<number>;

/** What is answered from: an open project's context and handler table. */
export type WarmProject = Pick<OpenProject, 'ctx' | 'handlers'>;

/**
 * Serves warm answers for an open project (docs/agents.md "Warm answers"): a one-shot
 * `memdesk recall` or `memdesk hook` of this home and project is run here by the same CLI code
 * (runCli, the same command and handlers) over this process's notes, which its watcher keeps
 * current. null when the process cannot serve (no private directory); it then simply does not.
 */
export async function serveWarm(
  place: WarmPlace,
  project: WarmProject,
  now = Date.now,
): Promise<WarmServer | null> {
  try {
    return await startWarmServer({ ...place, now, answer: warmAnswer(place, project, now) });
  } catch {
    return null; // no socket here (a path too long, a full disk): one-shot commands run cold
  }
}

/** A config file's identity: an edit since the notes were opened means another config. */
function stamp(file: string): string {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return 'none';
  }
}

function warmAnswer(
  place: WarmPlace,
  project: WarmProject,
  now: () => number,
): (request: WarmRequest, call: WarmCall) => Promise<WarmReply> {
  const configFiles = [userConfigPath(place.home), projectConfigPath(place.projectRoot)];
  const configStamp = configFiles.map(stamp).join('|');
  return async (request, call) => {
    // The open core was configured once; after a config edit only a cold run answers as configured.
    if (configFiles.map(stamp).join('|') !== configStamp)
      return {
        v: WARM_PROTOCOL_VERSION,
        status: 'cold',
        reason: 'config changed since this process started',
      };
    await project.ctx.core.settle();
    let allowed = false;
    let refused = false;
    const gate = {
      mayStart: () => {
        if (!allowed && (call.gone() || now() - call.receivedAt > WARM_EFFECTS_DEADLINE_MS)) refused = true;
        else allowed = true;
        return allowed;
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
      return { v: WARM_PROTOCOL_VERSION, status: 'cold', reason: 'asked too late; nothing changed' };
    return { v: WARM_PROTOCOL_VERSION, status: 'answer', exitCode, stdout: out.text(), stderr: err.text() };
  };
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
