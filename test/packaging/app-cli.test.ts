import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_CLI_FLAG,
  appCliArgs,
  bundledCliEntry,
  type AppLayout,
} from '../../electron/agents/setup/app-cli.js';
import { harnessSetup } from '../../electron/agents/setup/harness-files.js';
import { memdeskCommand, type MemdeskRuntime } from '../../electron/agents/setup/memdesk-command.js';
import { buildCliBundle, VENDORED_SQL_JS } from '../../scripts/build-cli.js';

/**
 * The packaged desktop app runs its own `memdesk` CLI (RunAsNode stays off: `<app> --memdesk-cli …`,
 * electron/agents/setup/app-cli.ts). What `setup` writes from inside the app, per way the app is
 * installed (paths as each layout has them; no real macOS/Windows disk here), and that the copy of
 * the CLI the app ships finds everything it loads inside the app.
 */
let tmp: string;
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-app-cli-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const inApp = (app: AppLayout): MemdeskRuntime => ({
  platform: app.platform,
  nodePath: null,
  script: null,
  nodeFlags: [],
  app,
});

/** The hook command and MCP entry setup writes for `harness` with this runtime. */
function written(
  harness: 'claude-code' | 'codex',
  runtime: MemdeskRuntime,
  env: Record<string, string> = {},
) {
  const setup = harnessSetup(harness, {
    homeDir: runtime.platform === 'win32' ? 'C:\\Users\\Ann' : '/home/ann',
    memdesk: memdeskCommand(env, runtime, () => false),
    homeArgs: [],
    platform: runtime.platform,
  });
  const hooks = JSON.parse(setup.files.find((f) => f.role === 'hooks')!.edit.add(null)) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
  };
  return { stop: hooks.hooks.Stop![0]!.hooks[0]!.command, mcp: setup.files[0]!.edit.add(null) };
}

describe('setup inside the packaged app writes the app’s own executable with --memdesk-cli', () => {
  it('macOS .app: the executable inside Contents/MacOS, POSIX-quoted', () => {
    const exe = '/Applications/Memory Desk.app/Contents/MacOS/Memory Desk';
    const { stop, mcp } = written('claude-code', inApp({ platform: 'darwin', execPath: exe, env: {} }));
    expect(stop).toBe(`'${exe}' ${APP_CLI_FLAG} hook claude-code Stop`);
    expect(JSON.parse(mcp).mcpServers['memory-desk']).toMatchObject({
      command: exe,
      args: [APP_CLI_FLAG, 'mcp'],
    });
  });

  it('macOS started from a disk image or Downloads (App Translocation): refused, saying to move it to Applications', () => {
    const runtime = inApp({
      platform: 'darwin',
      execPath:
        '/private/var/folders/x5/T/AppTranslocation/0F2C/d/Memory Desk.app/Contents/MacOS/Memory Desk',
      env: {},
    });
    expect(() => memdeskCommand({}, runtime)).toThrow(/Applications folder/);
  });

  it('Windows (nsis install): the .exe where it was installed, PowerShell-quoted for Codex', () => {
    const exe = 'C:\\Users\\Ann\\AppData\\Local\\Programs\\Memory Desk\\Memory Desk.exe';
    const { stop, mcp } = written('codex', inApp({ platform: 'win32', execPath: exe, env: {} }));
    expect(stop).toBe(`& '${exe}' ${APP_CLI_FLAG} hook codex Stop`);
    expect(mcp).toContain(`command = ${JSON.stringify(exe)}\nargs = ["${APP_CLI_FLAG}","mcp"]`);
  });

  it('Linux AppImage: the AppImage file, not the executable inside its temporary mount', () => {
    const appImage = '/home/ann/Apps/Memory Desk-0.1.0-x86_64.AppImage';
    const runtime = inApp({
      platform: 'linux',
      execPath: '/tmp/.mount_MemoryK3xQ/memory-desk',
      env: { APPIMAGE: appImage },
    });
    expect(memdeskCommand({}, runtime)).toEqual([appImage, APP_CLI_FLAG]);
    expect(written('claude-code', runtime).stop).toBe(`'${appImage}' ${APP_CLI_FLAG} hook claude-code Stop`);
  });

  it('Linux deb: the executable under /opt', () => {
    const runtime = inApp({ platform: 'linux', execPath: '/opt/Memory Desk/memory-desk', env: {} });
    expect(memdeskCommand({}, runtime)).toEqual(['/opt/Memory Desk/memory-desk', APP_CLI_FLAG]);
  });

  it('MEMDESK_COMMAND still wins inside the app', () => {
    const runtime = inApp({ platform: 'linux', execPath: '/opt/Memory Desk/memory-desk', env: {} });
    expect(memdeskCommand({ MEMDESK_COMMAND: 'node /srv/memdesk.js' }, runtime)).toEqual([
      'node',
      '/srv/memdesk.js',
    ]);
  });
});

describe('the app started as the CLI', () => {
  it('only when the flag comes right after the executable (packaged) or the app path (development)', () => {
    expect(appCliArgs(['/opt/Memory Desk/memory-desk', APP_CLI_FLAG, 'hook', 'codex', 'Stop'], true)).toEqual(
      ['hook', 'codex', 'Stop'],
    );
    expect(appCliArgs(['electron', '.', APP_CLI_FLAG, 'mcp'], false)).toEqual(['mcp']);
    expect(appCliArgs(['/opt/Memory Desk/memory-desk'], true)).toBeNull();
    expect(appCliArgs(['/opt/Memory Desk/memory-desk', '/home/ann/project'], true)).toBeNull();
    expect(appCliArgs(['/opt/Memory Desk/memory-desk', '/home/ann/x', APP_CLI_FLAG], true)).toBeNull();
  });

  it('finds the bundle where the builds put it: .vite/cli beside the main process’s .vite/build', () => {
    const resources = '/Applications/Memory Desk.app/Contents/Resources/app.asar';
    expect(bundledCliEntry(path.join(resources, '.vite', 'build'))).toBe(
      path.join(resources, '.vite', 'cli', 'memdesk.js'),
    );
  });

  it('the app’s copy of the CLI carries sql.js under vendor/ (no node_modules folder) and its import resolves there', async () => {
    // Under a package.json saying "module", as the app's own does at the root of app.asar.
    const appRoot = path.join(tmp, 'app');
    await fs.mkdir(appRoot, { recursive: true });
    await fs.writeFile(
      path.join(appRoot, 'package.json'),
      JSON.stringify({ name: 'memory-desk', type: 'module' }),
    );
    const outdir = path.join(appRoot, '.vite', 'cli');
    await buildCliBundle(outdir, { app: true });
    const files = await fs.readdir(outdir, { recursive: true });
    expect(files.some((f) => f.split(path.sep).includes('node_modules'))).toBe(false);
    // Every import of sql.js in the bundle names the vendored copy, relative to its own file.
    const importers: string[] = [];
    for (const f of files.filter((x) => /\.c?js$/.test(x) && !x.startsWith(VENDORED_SQL_JS))) {
      const text = await fs.readFile(path.join(outdir, f), 'utf8');
      for (const m of text.matchAll(/(?:from\s*|import\(\s*|require\(\s*)"([^"]*sql[^"]*)"/g))
        importers.push(path.resolve(path.dirname(path.join(outdir, f)), m[1]!));
      expect(text).not.toMatch(/["']sql\.js["']/);
    }
    expect(new Set(importers)).toEqual(new Set([path.join(outdir, VENDORED_SQL_JS, 'dist', 'sql-wasm.js')]));
    // That file loads as CommonJS under the app's "type": "module" and opens a database (its .wasm beside it).
    const probe = `const { default: init } = await import(${JSON.stringify(importers[0])}); const SQL = await init(); const db = new SQL.Database(); console.log(db.exec('select 6*7')[0].values[0][0]);`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', probe], { cwd: outdir });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(text.trim()));
    });
    expect(out).toBe('42');
  });
});
