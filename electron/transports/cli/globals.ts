import { existsSync } from 'node:fs';
import path from 'node:path';
import { defaultHome } from '../../memory/default-home.js';
import { UsageError } from './types.js';

/**
 * The CLI's global options (`--home`, `--project`, `--json`, `--help`, `--version`) and where they
 * put the run: read by run.ts, and by mcp-first.ts before the rest of the CLI is loaded.
 */
export interface Globals {
  home?: string;
  project?: string;
  json: boolean;
  help: boolean;
  version: boolean;
  /** The command's words, options and arguments. */
  rest: string[];
}

export function parseGlobals(argv: string[]): Globals {
  const g: Globals = { json: false, help: false, version: false, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      g.rest.push(...argv.slice(i));
      break;
    }
    const m = /^--(home|project)(?:=(.*))?$/.exec(arg);
    if (m) {
      const value = m[2] ?? argv[++i];
      if (value === undefined || value === '') throw new UsageError(`--${m[1]} needs a directory`);
      if (m[1] === 'home') g.home = value;
      else g.project = value;
    } else if (arg === '--json') g.json = true;
    else if (arg === '--help' || arg === '-h') g.help = true;
    else if (arg === '--version' || arg === '-v') g.version = true;
    else g.rest.push(arg);
  }
  return g;
}

/** The Memory Desk home: --home, else $OHARNESS_HOME, else ~/.oharness. */
export function homeOf(globals: Globals, cwd: string, env: Record<string, string | undefined>): string {
  return globals.home !== undefined ? path.resolve(cwd, globals.home) : defaultHome(env);
}

/** The project root: --project, else the nearest registered project upwards, else the cwd. */
export function projectRootOf(globals: Globals, cwd: string): string {
  if (globals.project !== undefined) return path.resolve(cwd, globals.project);
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.oharness', 'project.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(cwd);
  }
}
