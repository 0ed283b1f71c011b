import path from 'node:path';
import type { Harness } from '../../../shared/api/agents-connect.js';
import { CONTRACTS } from '../hooks/contracts.js';
import { flatHooks, groupedHooks, jsonMcpServer, tomlMcpServer, type ConfigEdit } from './config-edits.js';
import { commandLine, type HookShell } from './memdesk-command.js';

/** The name of Memory Desk's MCP server in every harness's config. */
export const MCP_NAME = 'memory-desk';
/** The harness's own timeout for one of our hooks (seconds); our own budget is shorter (answer-hook.ts). */
export const HOOK_TIMEOUT_S = 10;

export interface HarnessFile {
  path: string;
  /** What this file carries for the connection status. */
  role: 'mcp' | 'hooks';
  edit: ConfigEdit;
}

export interface HarnessSetup {
  harness: Harness;
  name: string;
  files: HarnessFile[];
  /** What the harness gets, said plainly (docs/agents.md). */
  support: string;
  notes: string[];
}

/**
 * Where each harness keeps its user-level config (under the home directory) and what setup writes
 * there. `memdesk` is the command that runs the CLI, as argv with an absolute path
 * (memdesk-command.ts); `--home` is added when Memory Desk's home is not the default one. MCP
 * entries take it as command + args; hook commands are one string, quoted for the shell the
 * harness runs hooks with on `platform`.
 */
export function harnessSetup(
  harness: Harness,
  opts: {
    homeDir: string;
    memdesk: readonly string[];
    homeArgs: readonly string[];
    platform: NodeJS.Platform;
  },
): HarnessSetup {
  const { homeDir } = opts;
  const shell: HookShell = opts.platform === 'win32' && harness !== 'claude-code' ? 'powershell' : 'posix';
  const marker = ` hook ${harness} `;
  const hookCommand = (event: string) =>
    commandLine([...opts.memdesk, ...opts.homeArgs, 'hook', harness, event], shell);
  const [mcpCommand = 'memdesk', ...mcpPrefix] = opts.memdesk;
  const mcpArgs = [...mcpPrefix, ...opts.homeArgs, 'mcp'];
  const events = Object.keys(CONTRACTS[harness].events);
  /** The hooks file of Claude Code and Codex: each event runs the hook command, timeout in seconds. */
  const commandHooksFile = (file: string, shown: string): HarnessSetup['files'][number] => ({
    path: file,
    role: 'hooks',
    edit: groupedHooks(
      shown,
      Object.fromEntries(
        events.map((e) => [e, { type: 'command', command: hookCommand(e), timeout: HOOK_TIMEOUT_S }]),
      ),
      marker,
    ),
  });

  switch (harness) {
    case 'claude-code':
      return {
        harness,
        name: 'Claude Code',
        support:
          'index at session start, <recalled-memory> on every prompt, extraction at stop and compaction (when turned on), MCP tools',
        notes: ['Start a new Claude Code session to load the hooks (or review them in /hooks).'],
        files: [
          {
            path: path.join(homeDir, '.claude.json'),
            role: 'mcp',
            edit: jsonMcpServer('~/.claude.json', MCP_NAME, {
              type: 'stdio',
              command: mcpCommand,
              args: mcpArgs,
              env: {},
            }),
          },
          commandHooksFile(path.join(homeDir, '.claude', 'settings.json'), '~/.claude/settings.json'),
        ],
      };
    case 'codex':
      return {
        harness,
        name: 'Codex CLI',
        support:
          'index at session start, <recalled-memory> on every prompt, extraction at stop and compaction (when turned on), MCP tools',
        notes: [
          "Codex runs a new or changed hook only once you trust it: start Codex, open /hooks and trust Memory Desk's four hooks (again after setup rewrites them, e.g. when the CLI moved). Until then they are skipped without a word.",
          'Hooks are on by default ([features] hooks in ~/.codex/config.toml; codex_hooks is its deprecated alias): nothing to turn on.',
        ],
        files: [
          {
            path: path.join(homeDir, '.codex', 'config.toml'),
            role: 'mcp',
            edit: tomlMcpServer(MCP_NAME, mcpCommand, mcpArgs),
          },
          commandHooksFile(path.join(homeDir, '.codex', 'hooks.json'), '~/.codex/hooks.json'),
        ],
      };
    case 'gemini':
      return {
        harness,
        name: 'Gemini CLI',
        support:
          'index at session start, <recalled-memory> on every prompt (BeforeAgent), extraction after each turn and before compression (when turned on), MCP tools',
        notes: ['Gemini CLI settings.json must be plain JSON for setup to edit it.'],
        files: [
          {
            path: path.join(homeDir, '.gemini', 'settings.json'),
            role: 'mcp',
            edit: jsonMcpServer('~/.gemini/settings.json', MCP_NAME, { command: mcpCommand, args: mcpArgs }),
          },
          {
            path: path.join(homeDir, '.gemini', 'settings.json'),
            role: 'hooks',
            edit: groupedHooks(
              '~/.gemini/settings.json',
              // Gemini CLI's hook timeout is in milliseconds.
              Object.fromEntries(
                events.map((e) => [
                  e,
                  {
                    type: 'command',
                    name: MCP_NAME,
                    command: hookCommand(e),
                    timeout: HOOK_TIMEOUT_S * 1000,
                  },
                ]),
              ),
              marker,
            ),
          },
        ],
      };
    case 'cursor':
      return {
        harness,
        name: 'Cursor',
        support:
          "index at session start, <recalled-memory> with the turn's first tool use (beforeSubmitPrompt cannot add context), extraction at stop and compaction (when turned on), MCP tools; the project rule puts the index in every chat",
        notes: ['Cursor reads ~/.cursor/hooks.json and ~/.cursor/mcp.json at start: restart it.'],
        files: [
          {
            path: path.join(homeDir, '.cursor', 'mcp.json'),
            role: 'mcp',
            // Cursor may start MCP servers outside the project; it fills in ${workspaceFolder}.
            edit: jsonMcpServer('~/.cursor/mcp.json', MCP_NAME, {
              command: mcpCommand,
              args: [...mcpPrefix, ...opts.homeArgs, '--project', '${workspaceFolder}', 'mcp'],
            }),
          },
          {
            path: path.join(homeDir, '.cursor', 'hooks.json'),
            role: 'hooks',
            edit: flatHooks(
              '~/.cursor/hooks.json',
              Object.fromEntries(events.map((e) => [e, { command: hookCommand(e) }])),
              marker,
            ),
          },
        ],
      };
  }
}
