import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HARNESSES } from '../../shared/api/agents-connect.js';
import { harnessStatuses, runSetup, type SetupDeps } from '../../electron/agents/setup/setup.js';
import { CLI_ENTRY, runMemdesk, TSX_LOADER } from '../agents/run-cli.js';
import { fixture } from './helpers.js';
import { tempDir } from '../support/temp-dir.js';

/** `memdesk setup` on a temporary HOME: merge, back up first, idempotent, dry run, undo. */
let tmp: string;
let homeDir: string;
let deps: SetupDeps;
/** The CLI as this process would find itself: Node and the bundle's real path, in a folder with a space. */
const NODE = '/usr/local/bin/node';
let script: string;

beforeEach(async () => {
  tmp = await tempDir('setup');
  homeDir = path.join(tmp, 'user-home');
  await fs.mkdir(homeDir, { recursive: true });
  script = path.join(tmp, 'Memory Desk', 'dist', 'cli', 'memdesk.js');
  deps = {
    home: path.join(homeDir, '.oharness'),
    env: { HOME: homeDir },
    now: () => 1_780_000_000_000,
    runtime: { platform: 'linux', nodePath: NODE, script, nodeFlags: [] },
  };
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const read = (rel: string) => fs.readFile(path.join(homeDir, rel), 'utf8');
const write = async (rel: string, text: string) => {
  await fs.mkdir(path.dirname(path.join(homeDir, rel)), { recursive: true });
  await fs.writeFile(path.join(homeDir, rel), text);
};

describe('memdesk setup', { timeout: 120_000 }, () => {
  it('Claude Code: merges into existing files, backs them up, is idempotent, and undo restores them byte for byte', async () => {
    const claudeJson = '{"numStartups": 12, "mcpServers": {"github": {"command": "gh-mcp"}}}';
    const settings = JSON.stringify(
      {
        model: 'opus',
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'my-own-hook.sh' }] }] },
      },
      null,
      4,
    );
    await write('.claude.json', claudeJson);
    await write('.claude/settings.json', settings);

    const dry = await runSetup(deps, { harness: 'claude-code', dryRun: true, undo: false });
    expect(dry.files.map((f) => f.action)).toEqual(['updated', 'updated']);
    expect(dry.files[1]!.diff).toContain('+');
    expect(await read('.claude.json')).toBe(claudeJson); // a dry run writes nothing

    const first = await runSetup(deps, { harness: 'claude-code', dryRun: false, undo: false });
    expect(first.files.map((f) => f.action)).toEqual(['updated', 'updated']);
    expect(await fs.readFile(first.files[0]!.backup!, 'utf8')).toBe(claudeJson);
    const cj = JSON.parse(await read('.claude.json'));
    expect(cj.numStartups).toBe(12);
    expect(cj.mcpServers.github).toEqual({ command: 'gh-mcp' });
    expect(cj.mcpServers['memory-desk']).toEqual({
      type: 'stdio',
      command: NODE,
      args: [script, '--home', deps.home, 'mcp'],
      env: {},
    });
    const s = JSON.parse(await read('.claude/settings.json'));
    expect(s.model).toBe('opus');
    expect(s.hooks.UserPromptSubmit).toEqual([
      { hooks: [{ type: 'command', command: 'my-own-hook.sh' }] },
      {
        hooks: [
          {
            type: 'command',
            command: `${NODE} '${script}' --home ${deps.home} hook claude-code UserPromptSubmit`,
            timeout: 10,
          },
        ],
      },
    ]);
    expect(Object.keys(s.hooks).sort()).toEqual(['PreCompact', 'SessionStart', 'Stop', 'UserPromptSubmit']);

    const again = await runSetup(deps, { harness: 'claude-code', dryRun: false, undo: false });
    expect(again.files.map((f) => f.action)).toEqual(['unchanged', 'unchanged']);

    const undo = await runSetup(deps, { harness: 'claude-code', dryRun: false, undo: true });
    expect(undo.files.map((f) => f.action)).toEqual(['restored', 'restored']);
    expect(await read('.claude.json')).toBe(claudeJson);
    expect(await read('.claude/settings.json')).toBe(settings);
  });

  it('undo after someone else edited the file takes out only our entries, keeping theirs', async () => {
    await runSetup(deps, { harness: 'claude-code', dryRun: false, undo: false });
    const s = JSON.parse(await read('.claude/settings.json'));
    s.theme = 'dark';
    await write('.claude/settings.json', JSON.stringify(s));
    const undo = await runSetup(deps, { harness: 'claude-code', dryRun: false, undo: true });
    expect(undo.files.map((f) => f.action)).toEqual(['removed', 'updated']);
    expect(JSON.parse(await read('.claude/settings.json'))).toEqual({ theme: 'dark' });
    await expect(read('.claude.json')).rejects.toThrow(); // setup created it: undo removes it
  });

  it('Codex: a TOML table of our own plus hooks.json; the rest of config.toml is kept as text', async () => {
    const toml = '# my settings\nmodel = "gpt-5.1-codex"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n';
    await write('.codex/config.toml', toml);
    const out = await runSetup(deps, { harness: 'codex', dryRun: false, undo: false });
    // Codex skips a user hook nobody trusted in /hooks, silently: setup says so.
    expect(out.notes.join('\n')).toContain('open /hooks and trust');
    const after = await read('.codex/config.toml');
    expect(after.startsWith(toml.trimEnd())).toBe(true);
    expect(after).toContain(
      `[mcp_servers.memory-desk]\ncommand = "${NODE}"\nargs = ["${script}","--home","${deps.home}","mcp"]\n`,
    );
    const hooks = JSON.parse(await read('.codex/hooks.json'));
    expect(hooks.hooks.SessionStart[0].hooks[0].command).toBe(
      `${NODE} '${script}' --home ${deps.home} hook codex SessionStart`,
    );
    // Only the events and keys Codex's own hooks.json reader knows (the fixture, from its source).
    const known = (await fixture('codex', '_hooksFile', { cwd: tmp })) as Record<string, string[]>;
    for (const [event, groups] of Object.entries(hooks.hooks as Record<string, Record<string, unknown>[]>)) {
      expect(known.events).toContain(event);
      for (const group of groups) {
        expect(known.groupKeys).toEqual(expect.arrayContaining(Object.keys(group)));
        for (const handler of group.hooks as Record<string, unknown>[]) {
          expect(known.commandKeys).toEqual(expect.arrayContaining(Object.keys(handler)));
          expect(handler).toMatchObject({ type: 'command', timeout: 10 });
        }
      }
    }
    expect(
      (await runSetup(deps, { harness: 'codex', dryRun: false, undo: false })).files.every(
        (f) => f.action === 'unchanged',
      ),
    ).toBe(true);
    await runSetup(deps, { harness: 'codex', dryRun: false, undo: true });
    expect(await read('.codex/config.toml')).toBe(toml);
  });

  it('Gemini CLI and Cursor: their own files and event names; a file that is not JSON is left alone', async () => {
    await runSetup(deps, { harness: 'gemini', dryRun: false, undo: false });
    const g = JSON.parse(await read('.gemini/settings.json'));
    expect(Object.keys(g.hooks).sort()).toEqual(['AfterAgent', 'BeforeAgent', 'PreCompress', 'SessionStart']);
    expect(g.hooks.BeforeAgent[0].hooks[0].timeout).toBe(10_000);
    expect(g.mcpServers['memory-desk'].args).toEqual([script, '--home', deps.home, 'mcp']);

    await runSetup(deps, { harness: 'cursor', dryRun: false, undo: false });
    const c = JSON.parse(await read('.cursor/hooks.json'));
    expect(c.version).toBe(1);
    expect(Object.keys(c.hooks).sort()).toEqual([
      'beforeSubmitPrompt',
      'postToolUse',
      'preCompact',
      'sessionStart',
      'stop',
    ]);
    expect(JSON.parse(await read('.cursor/mcp.json')).mcpServers['memory-desk']).toEqual({
      command: NODE,
      args: [script, '--home', deps.home, '--project', '${workspaceFolder}', 'mcp'],
    });

    const statuses = await harnessStatuses(deps);
    expect(statuses.map((s) => [s.harness, s.mcp, s.hooks])).toEqual([
      ['claude-code', false, false],
      ['codex', false, false],
      ['gemini', true, true],
      ['cursor', true, true],
    ]);
    expect(statuses.map((s) => s.harness)).toEqual([...HARNESSES]);

    await write('.claude/settings.json', '{ // a comment\n}');
    await expect(runSetup(deps, { harness: 'claude-code', dryRun: false, undo: false })).rejects.toThrow(
      /not plain JSON/,
    );
    expect(await read('.claude/settings.json')).toBe('{ // a comment\n}');
  });

  it('the CLI: --dry-run prints the change and writes nothing', async () => {
    // runMemdesk runs with HOME = OHARNESS_HOME = deps.home (the default home: no --home in the commands).
    const r = await runMemdesk(['setup', 'cursor', '--dry-run'], { cwd: tmp, home: deps.home });
    expect(r.code).toBe(0);
    const file = path.join(deps.home, '.cursor', 'hooks.json');
    expect(r.stdout).toContain(`${file}: would be created`);
    // The CLI writes itself: this Node, its TypeScript loader, the entry script — absolute paths.
    expect(r.stdout).toContain(
      `+        "command": "${process.execPath} --import ${TSX_LOADER} ${CLI_ENTRY} hook cursor sessionStart"`,
    );
    await expect(fs.readFile(file, 'utf8')).rejects.toThrow();
  });
});
