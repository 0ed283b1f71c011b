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
/** What each harness is called, what it gets (said plainly, docs/agents.md), and what to do after setup. */
const ABOUT: Record<Harness, Pick<HarnessSetup, 'name' | 'support' | 'notes'>> = {
  'claude-code': {
    name: 'Claude Code',
    support:
      'index at session start, <recalled-memory> on every prompt, extraction at stop and compaction (when turned on), MCP tools',
    notes: ['Start a new Claude Code session to load the hooks (or review them in /hooks).'],
  },
  codex: {
    name: 'Codex CLI',
    support:
      'index at session start, <recalled-memory> on every prompt, extraction at stop and compaction (when turned on), MCP tools',
    notes: [
      "Codex runs a new or changed hook only once you trust it: start Codex, open /hooks and trust Memory Desk's four hooks (again after setup rewrites them, e.g. when the CLI moved). Until then they are skipped without a word.",
      'Hooks are on by default ([features] hooks in ~/.codex/config.toml; codex_hooks is its deprecated alias): nothing to turn on.',
    ],
  },
  gemini: {
    name: 'Gemini CLI',
    support:
      'index at session start, <recalled-memory> on every prompt (BeforeAgent), extraction after each turn and before compression (when turned on), MCP tools',
    notes: ['Gemini CLI settings.json must be plain JSON for setup to edit it.'],
  },
  cursor: {
    name: 'Cursor',
    support:
      "index at session start, <recalled-memory> with the turn's first tool use (beforeSubmitPrompt cannot add context), extraction at stop and compaction (when turned on), MCP tools; the project rule puts the index in every chat",
    notes: ['Cursor reads ~/.cursor/hooks.json and ~/.cursor/mcp.json at start: restart it.'],
  },
};

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
  /** A file under the home directory; its edit names it as the person sees it (`~/.claude.json`). */
  const homeFile = (
    role: HarnessFile['role'],
    parts: string[],
    edit: (shown: string) => ConfigEdit,
  ): HarnessFile => ({ path: path.join(homeDir, ...parts), role, edit: edit(`~/${parts.join('/')}`) });
  /** The hooks file of Claude Code and Codex: each event runs the hook command, timeout in seconds. */
  const commandHooksFile = (parts: string[]): HarnessFile =>
    homeFile('hooks', parts, (shown) =>
      groupedHooks(
        shown,
        Object.fromEntries(
          events.map((e) => [e, { type: 'command', command: hookCommand(e), timeout: HOOK_TIMEOUT_S }]),
        ),
        marker,
      ),
    );
  const files = (): HarnessFile[] => {
    switch (harness) {
      case 'claude-code':
        return [
          homeFile('mcp', ['.claude.json'], (shown) =>
            jsonMcpServer(shown, MCP_NAME, { type: 'stdio', command: mcpCommand, args: mcpArgs, env: {} }),
          ),
          commandHooksFile(['.claude', 'settings.json']),
        ];
      case 'codex':
        return [
          homeFile('mcp', ['.codex', 'config.toml'], () => tomlMcpServer(MCP_NAME, mcpCommand, mcpArgs)),
          commandHooksFile(['.codex', 'hooks.json']),
        ];
      case 'gemini':
        return [
          homeFile('mcp', ['.gemini', 'settings.json'], (shown) =>
            jsonMcpServer(shown, MCP_NAME, { command: mcpCommand, args: mcpArgs }),
          ),
          homeFile('hooks', ['.gemini', 'settings.json'], (shown) =>
            groupedHooks(
              shown,
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
          ),
        ];
      case 'cursor':
        return [
          // Cursor may start MCP servers outside the project; it fills in ${workspaceFolder}.
          homeFile('mcp', ['.cursor', 'mcp.json'], (shown) =>
            jsonMcpServer(shown, MCP_NAME, {
              command: mcpCommand,
              args: [...mcpPrefix, ...opts.homeArgs, '--project', '${workspaceFolder}', 'mcp'],
            }),
          ),
          homeFile('hooks', ['.cursor', 'hooks.json'], (shown) =>
            flatHooks(shown, Object.fromEntries(events.map((e) => [e, { command: hookCommand(e) }])), marker),
          ),
        ];
    }
  };
  return { harness, ...ABOUT[harness], files: files() };
}
