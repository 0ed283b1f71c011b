import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/errors.js';
import { appCliCommand, type AppLayout } from './app-cli.js';

/**
 * The command an agent harness runs to reach Memory Desk, as argv. Setup writes it into the
 * harness's config, so it must work from wherever the harness starts it, with whatever PATH it
 * has: an absolute path, never a bare `memdesk`.
 *
 * 1. `MEMDESK_COMMAND`, when set (split like a shell would: quotes keep spaces);
 * 2. the CLI this process runs: the Node binary, a TypeScript loader when run from sources, and
 *    the script's real path (`…/dist/cli/memdesk.js`, the package's bin, symlinks resolved);
 * 3. in the packaged desktop app: the CLI it ships, run by the app's own executable (app-cli.ts);
 * 4. `memdesk` found on PATH (the app in development, other processes), as the Node binary + its
 *    script when it is one;
 * 5. otherwise an error saying how to make it findable.
 */
export interface MemdeskRuntime {
  platform: NodeJS.Platform;
  /** The Node binary running this process; null inside Electron (not a Node the harness can run). */
  nodePath: string | null;
  /** The memdesk CLI script this process runs, or null when it runs something else (the app, tests). */
  script: string | null;
  /** Node flags the script needs to load (the TypeScript loader when it runs from sources). */
  nodeFlags: string[];
  /** Set inside the packaged desktop app: how it is installed (its executable runs its own CLI). */
  app?: AppLayout;
}

const CLI_SCRIPT = /^memdesk\.(?:[cm]?js|ts)$/;
/** Node flags that load code the script depends on; anything else (--inspect…) is not carried over. */
const LOADER_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

export function currentRuntime(): MemdeskRuntime {
  const electron = process.versions.electron !== undefined;
  let script: string | null = null;
  const argv1 = process.argv[1];
  if (!electron && argv1) {
    try {
      const real = realpathSync(argv1);
      if (CLI_SCRIPT.test(path.basename(real))) script = real;
    } catch {
      // argv[1] is not a file (node -e, a REPL): not the CLI
    }
  }
  // `electron .` (development) sets process.defaultApp; the packaged app does not.
  const packaged = electron && !(process as { defaultApp?: boolean }).defaultApp;
  return {
    platform: process.platform,
    nodePath: electron ? null : process.execPath,
    script,
    nodeFlags: loaderFlags(process.execArgv),
    ...(packaged ? { app: { platform: process.platform, execPath: process.execPath, env: process.env } } : {}),
  };
}

function loaderFlags(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    const name = flag.split('=')[0]!;
    if (!LOADER_FLAGS.has(name)) continue;
    if (flag.includes('=')) out.push(flag);
    else if (i + 1 < execArgv.length) out.push(flag, execArgv[++i]!);
  }
  return out;
}

export function memdeskCommand(
  env: Record<string, string | undefined>,
  runtime: MemdeskRuntime,
  exists: (file: string) => boolean = existsSync,
): string[] {
  const configured = env.MEMDESK_COMMAND?.trim();
  if (configured) return splitCommandLine(configured);
  if (runtime.script && runtime.nodePath) return [runtime.nodePath, ...runtime.nodeFlags, runtime.script];
  if (runtime.app) return appCliCommand(runtime.app);
  const found = installedCli(env, runtime.platform, exists);
  if (found) return found;
  throw new AppError(
    'unavailable',
    'cannot find the memdesk command to write into the agent’s config: install the CLI (npm install -g memory-desk), ' +
      'or set MEMDESK_COMMAND to the command that runs it, e.g. "node /path/to/dist/cli/memdesk.js"',
  );
}

/** `memdesk` on PATH, as [node, script] when it is the npm-installed script, else its absolute path. */
function installedCli(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  exists: (file: string) => boolean,
): string[] | null {
  const win = platform === 'win32';
  const p = win ? path.win32 : path.posix;
  const dirs = (env.PATH ?? env.Path ?? '').split(win ? ';' : ':').filter((d) => p.isAbsolute(d));
  const names = win ? ['memdesk.cmd', 'memdesk.exe'] : ['memdesk'];
  const node = (dir: string) => {
    const local = p.join(dir, win ? 'node.exe' : 'node');
    if (exists(local)) return local;
    for (const d of dirs)
      if (exists(p.join(d, win ? 'node.exe' : 'node'))) return p.join(d, win ? 'node.exe' : 'node');
    return null;
  };
  for (const dir of dirs) {
    for (const name of names) {
      const bin = p.join(dir, name);
      if (!exists(bin)) continue;
      // npm's shim on Windows sits beside node_modules; elsewhere the bin is a symlink to the script.
      const script = win
        ? p.join(dir, 'node_modules', 'memory-desk', 'dist', 'cli', 'memdesk.js')
        : realpathOr(bin);
      const nodeBin = script.endsWith('.js') && exists(script) ? node(dir) : null;
      return nodeBin ? [nodeBin, script] : [win ? bin : script];
    }
  }
  return null;
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file; // not there (yet): the path as given
  }
}

/** `node "/My Apps/memdesk.js"` → ['node', '/My Apps/memdesk.js']: spaces split, quotes group. */
export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|([^\s"']+)/g;
  let word = '';
  let last = -1;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    // Parts written next to each other (no space between) are one word: a"b c"d → ab cd.
    if (last !== m.index && word) {
      out.push(word);
      word = '';
    }
    word += m[1] ?? m[2] ?? m[3] ?? '';
    last = re.lastIndex;
  }
  if (word) out.push(word);
  return out;
}

/**
 * Which shell reads a hook's command string. Everywhere but Windows: a POSIX shell. On Windows,
 * Claude Code runs hooks through Git Bash; Codex CLI, Gemini CLI and Cursor through PowerShell.
 */
export type HookShell = 'posix' | 'powershell';

/** argv as one command line for `shell`: arguments that need it quoted, nothing else touched. */
export function commandLine(argv: readonly string[], shell: HookShell): string {
  if (shell === 'posix') {
    return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  }
  const quoted = argv.map((a) => (/^[\w:.\\/-][\w:.\\/=,+-]*$/.test(a) ? a : `'${a.replace(/'/g, "''")}'`));
  // PowerShell reads a quoted first word as a string expression: `&` makes it the command to run.
  return quoted[0]?.startsWith("'") ? `& ${quoted.join(' ')}` : quoted.join(' ');
}
