import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessSetup } from '../../electron/agents/setup/harness-files.js';
import {
  commandLine,
  memdeskCommand,
  splitCommandLine,
  type MemdeskRuntime,
} from '../../electron/agents/setup/memdesk-command.js';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { fixture } from './helpers.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * What `memdesk setup` writes as the command: an absolute path (never a bare `memdesk` the
 * harness may not find on its PATH), quoted for the shell that harness runs hooks with, and
 * working as written — the written hook commands are run through a real shell here.
 */
let tmp: string;

beforeAll(async () => {
  tmp = await tempDir('setup-cmd');
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const linux = (over: Partial<MemdeskRuntime> = {}): MemdeskRuntime => ({
  platform: 'linux',
  nodePath: null,
  script: null,
  nodeFlags: [],
  ...over,
});

describe('the command setup writes', () => {
  it('MEMDESK_COMMAND wins and is split like a shell would (quotes keep spaces)', () => {
    expect(splitCommandLine(`node "/opt/My Apps/memdesk.js"  --flag 'a b'c`)).toEqual([
      'node',
      '/opt/My Apps/memdesk.js',
      '--flag',
      'a bc',
    ]);
    const runtime = linux({ nodePath: '/usr/bin/node', script: '/x/memdesk.js' });
    expect(memdeskCommand({ MEMDESK_COMMAND: '"C:\\Program Files\\memdesk.exe"' }, runtime)).toEqual([
      'C:\\Program Files\\memdesk.exe',
    ]);
    expect(memdeskCommand({}, runtime)).toEqual(['/usr/bin/node', '/x/memdesk.js']);
    expect(
      memdeskCommand(
        {},
        linux({ nodePath: '/usr/bin/node', script: '/src/memdesk.ts', nodeFlags: ['--import', 'tsx'] }),
      ),
    ).toEqual(['/usr/bin/node', '--import', 'tsx', '/src/memdesk.ts']);
  });

  it('outside the CLI (the app): memdesk found on PATH, as node + the script its bin links to', async () => {
    const prefix = path.join(tmp, 'npm prefix');
    const bin = path.join(prefix, 'bin');
    const pkg = path.join(prefix, 'lib', 'node_modules', 'memory-desk', 'dist', 'cli');
    await fs.mkdir(bin, { recursive: true });
    await fs.mkdir(pkg, { recursive: true });
    await fs.writeFile(path.join(pkg, 'memdesk.js'), '#!/usr/bin/env node\n');
    await fs.symlink(path.join(pkg, 'memdesk.js'), path.join(bin, 'memdesk'));
    await fs.writeFile(path.join(bin, 'node'), '');
    const env = { PATH: ['relative/ignored', path.join(tmp, 'empty'), bin].join(':') };
    expect(memdeskCommand(env, linux())).toEqual([path.join(bin, 'node'), path.join(pkg, 'memdesk.js')]);
    expect(() => memdeskCommand({ PATH: path.join(tmp, 'empty') }, linux())).toThrow(/MEMDESK_COMMAND/);
  });

  it('Windows (file checks simulated, not a real Windows disk): npm’s memdesk.cmd shim → node.exe + the script beside it', () => {
    const files = new Set([
      'C:\\Users\\Ann Lee\\AppData\\Roaming\\npm\\memdesk.cmd',
      'C:\\Users\\Ann Lee\\AppData\\Roaming\\npm\\node_modules\\memory-desk\\dist\\cli\\memdesk.js',
      'C:\\Program Files\\nodejs\\node.exe',
    ]);
    const env = {
      Path: 'C:\\Windows\\system32;C:\\Users\\Ann Lee\\AppData\\Roaming\\npm;C:\\Program Files\\nodejs',
    };
    expect(memdeskCommand(env, linux({ platform: 'win32' }), (f) => files.has(f))).toEqual([
      'C:\\Program Files\\nodejs\\node.exe',
      'C:\\Users\\Ann Lee\\AppData\\Roaming\\npm\\node_modules\\memory-desk\\dist\\cli\\memdesk.js',
    ]);
  });

  it('quotes for each harness’s hook shell: POSIX shells, and PowerShell (Codex, Gemini, Cursor on Windows)', () => {
    expect(
      commandLine(['/usr/bin/node', "/home/o'neil/My Apps/memdesk.js", 'hook', 'codex', 'Stop'], 'posix'),
    ).toBe(`/usr/bin/node '/home/o'\\''neil/My Apps/memdesk.js' hook codex Stop`);
    const node = 'C:\\Program Files\\nodejs\\node.exe';
    const script = "C:\\Users\\Ann O'Lee\\npm\\memdesk.js";
    const win = (harness: 'claude-code' | 'codex' | 'gemini' | 'cursor') =>
      harnessSetup(harness, {
        homeDir: 'C:\\Users\\Ann',
        memdesk: [node, script],
        homeArgs: [],
        platform: 'win32',
      });
    const hooksOf = (harness: 'claude-code' | 'codex' | 'gemini' | 'cursor') =>
      JSON.stringify(
        JSON.parse(
          win(harness)
            .files.find((f) => f.role === 'hooks')!
            .edit.add(null),
        ),
      );
    // PowerShell: single quotes ('' inside), and & to run a quoted path.
    expect(hooksOf('codex')).toContain(
      JSON.stringify(
        `& 'C:\\Program Files\\nodejs\\node.exe' 'C:\\Users\\Ann O''Lee\\npm\\memdesk.js' hook codex Stop`,
      ),
    );
    expect(hooksOf('gemini')).toContain(
      JSON.stringify(`& '${node}' 'C:\\Users\\Ann O''Lee\\npm\\memdesk.js' hook gemini BeforeAgent`),
    );
    expect(hooksOf('cursor')).toContain(
      JSON.stringify(`& '${node}' 'C:\\Users\\Ann O''Lee\\npm\\memdesk.js' hook cursor stop`),
    );
    // Claude Code runs hooks through Git Bash on Windows.
    expect(hooksOf('claude-code')).toContain(
      JSON.stringify(`'${node}' 'C:\\Users\\Ann O'\\''Lee\\npm\\memdesk.js' hook claude-code Stop`),
    );
    // MCP entries are argv: no shell, no quoting.
    expect(win('codex').files[0]!.edit.add(null)).toContain(
      `command = ${JSON.stringify(node)}\nargs = [${JSON.stringify(script)},"mcp"]`,
    );
  });

  it('the bundled CLI in a folder with spaces and a quote: setup writes its absolute path, the hook runs through sh as written, undo restores exactly', async () => {
    const bundleDir = path.join(tmp, "Ann's Apps", 'Memory Desk');
    const cli = await buildCliBundle(bundleDir);
    const userHome = path.join(tmp, 'user home');
    const mdHome = path.join(userHome, '.oharness');
    const project = path.join(tmp, 'shop');
    await fs.mkdir(project, { recursive: true });
    const settings = '{\n    "model": "opus"\n}\n';
    await fs.mkdir(path.join(userHome, '.claude'), { recursive: true });
    await fs.writeFile(path.join(userHome, '.claude', 'settings.json'), settings);
    const env = { PATH: process.env.PATH ?? '', HOME: userHome, OHARNESS_HOME: mdHome };
    const memdesk = (args: string[], input?: string) => cliRun([cli, ...args], { cwd: project, env, input });

    expect(
      (
        await memdesk([
          'remember',
          '--summary',
          'Factorial helpers live in mathutil',
          '--tags',
          'factorial',
          '--body',
          'Use mathutil.factorial.',
        ])
      ).code,
    ).toBe(0);
    expect((await memdesk(['setup', 'claude-code'])).code).toBe(0);
    const written = JSON.parse(await fs.readFile(path.join(userHome, '.claude', 'settings.json'), 'utf8'));
    const command: string = written.hooks.UserPromptSubmit[0].hooks[0].command;
    expect(command).toBe(
      `${process.execPath} '${bundleDir.replace(/'/g, `'\\''`)}/memdesk.js' hook claude-code UserPromptSubmit`,
    );
    const mcp = JSON.parse(await fs.readFile(path.join(userHome, '.claude.json'), 'utf8')).mcpServers[
      'memory-desk'
    ];
    expect(mcp).toMatchObject({ command: process.execPath, args: [cli, 'mcp'] });

    // As Claude Code runs it: through a shell, the hook's JSON on stdin, from another directory, PATH without node.
    const input = JSON.stringify(await fixture('claude-code', 'UserPromptSubmit', { cwd: project }));
    const answer = await cliRun(['-c', command], {
      cwd: os.tmpdir(),
      env: { PATH: '/usr/bin:/bin', HOME: userHome, OHARNESS_HOME: mdHome },
      input,
      exe: '/bin/sh',
    });
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout).hookSpecificOutput.additionalContext).toContain(
      'Factorial helpers live in mathutil',
    );

    expect((await memdesk(['setup', 'claude-code', '--undo'])).code).toBe(0);
    expect(await fs.readFile(path.join(userHome, '.claude', 'settings.json'), 'utf8')).toBe(settings);
    await expect(fs.access(path.join(userHome, '.claude.json'))).rejects.toThrow();
  }, 120_000);
});

function cliRun(
  args: string[],
  opts: { cwd: string; env: Record<string, string>; input?: string; exe?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.exe ?? process.execPath, args, { cwd: opts.cwd, env: opts.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
