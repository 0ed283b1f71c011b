import os from 'node:os';
import path from 'node:path';

/**
 * `$OHARNESS_HOME`, else `~/.oharness`. A module of its own so a command can know the home before
 * it loads the memory core (`memdesk mcp` answers initialize first: docs/performance.md).
 */
export function defaultHome(env: Record<string, string | undefined> = process.env): string {
  return env.OHARNESS_HOME && env.OHARNESS_HOME.trim()
    ? path.resolve(env.OHARNESS_HOME)
    : path.join(os.homedir(), '.oharness');
}
