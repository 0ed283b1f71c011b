import { spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU in 1/100 s. */
const TICK_MS = 10;

export interface WarmMcp {
  /** CPU (user + sys) the server has used so far, from /proc (10 ms ticks). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * `memdesk mcp` as an agent keeps it running (initialize, initialized), ready once it advertises a
 * warm answer in `$XDG_RUNTIME_DIR/memdesk` (docs/agents.md "Warm answers"); for bench/cli-cold and
 * bench/hooks.
 */
export async function startWarmMcp(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<WarmMcp> {
  const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['pipe', 'ignore', 'inherit'] });
  const send = (msg: unknown) => child.stdin.write(JSON.stringify(msg) + '\n');
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const dir = path.join(env.XDG_RUNTIME_DIR!, 'memdesk');
  for (let waited = 0; ; waited += 100) {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const ads = await Promise.all(
      names
        .filter((n) => n.endsWith('.json'))
        .map((n) => fs.readFile(path.join(dir, n), 'utf8').catch(() => '{}')),
    );
    if (ads.some((a) => (JSON.parse(a) as { pid?: number }).pid === child.pid)) break;
    if (child.exitCode !== null) throw new Error('memdesk mcp exited before it advertised a warm answer');
    if (waited > 300_000) throw new Error('memdesk mcp did not advertise a warm answer in 5 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    cpuMs() {
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(f[11]) + Number(f[12])) * TICK_MS;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end(); // the client closing stdin ends `memdesk mcp`
      }),
  };
}
