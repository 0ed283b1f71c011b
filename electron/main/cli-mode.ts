import { pathToFileURL } from 'node:url';
import { app } from 'electron';
import { bundledCliEntry } from '../agents/setup/app-cli.js';

/**
 * `<Memory Desk> --memdesk-cli <command …>`: the app's executable as the `memdesk` CLI
 * (electron/agents/setup/app-cli.ts says why not ELECTRON_RUN_AS_NODE). No window, no single-instance
 * lock, no Dock icon; the bundle inside app.asar runs as if node had started it, and the process
 * exits with its exit code once it is done (for `mcp`, when the client closes stdin).
 */
export async function runAppCli(args: string[], mainDir: string): Promise<void> {
  app.dock?.hide();
  const entry = bundledCliEntry(mainDir);
  // The bundle reads its arguments as node would give them: [node, script, …args].
  process.argv = [process.execPath, entry, ...args];
  try {
    await import(/* @vite-ignore */ pathToFileURL(entry).href);
  } catch (err) {
    process.stderr.write(`memdesk: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
  app.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
}
