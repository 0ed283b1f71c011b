import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ApiOutput, ApiParsedInput } from '../../../shared/api.js';
import { HARNESSES, type Harness } from '../../../shared/api/agents-connect.js';
import { readFileOrNull, writeFileAtomic } from '../../memory/atomic-write.js';
import { defaultHome } from '../../memory/default-home.js';
import { AppError } from '../../../shared/errors.js';
import { cursorRuleFile, isOurCursorRule, removeCursorRule, writeCursorRule } from '../cursor-rule.js';
import { harnessSetup, type HarnessSetup } from './harness-files.js';
import { currentRuntime, memdeskCommand, type MemdeskRuntime } from './memdesk-command.js';

/**
 * `memdesk setup <harness> [--dry-run] [--undo]`: writes the MCP server entry and the hooks into
 * the harness's own config files under the home directory. Before a file is changed its old version
 * is copied to `$OHARNESS_HOME/agents-setup/backups/`; a manifest records what setup wrote, so
 * `--undo` puts back the exact old file when nothing changed it since, and otherwise takes only
 * Memory Desk's entries out (backing up first). Running setup twice changes nothing the second time.
 */
export interface SetupDeps {
  /** OHARNESS_HOME. */
  home: string;
  env: Record<string, string | undefined>;
  now: () => number;
  /** How this process runs, to find the CLI's absolute path (memdesk-command.ts); the current process by default. */
  runtime?: MemdeskRuntime;
}

type SetupOutput = ApiOutput<'agents.setup'>;
type FileChange = SetupOutput['files'][number];

const ManifestSchema = z.object({
  files: z.record(z.string(), z.object({ backup: z.string().nullable(), written: z.string() })),
  /** Project roots where setup wrote Cursor's memory rule (cursor-rule.ts); undo removes each. */
  rules: z.array(z.string()).default([]),
});
type Manifest = z.infer<typeof ManifestSchema>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function stateDir(home: string): string {
  return path.join(home, 'agents-setup');
}

export function homeDirOf(env: Record<string, string | undefined>): string {
  return env.HOME?.trim() || env.USERPROFILE?.trim() || os.homedir();
}

/**
 * The harness's files and edits. `command` is the CLI's argv; statuses only look for our entries
 * (by server name and `hook <harness>`), so they pass a placeholder and never fail to find the CLI.
 */
export function setupFor(deps: SetupDeps, harness: Harness, command?: readonly string[]): HarnessSetup {
  const runtime = deps.runtime ?? currentRuntime();
  return harnessSetup(harness, {
    homeDir: homeDirOf(deps.env),
    memdesk: command ?? memdeskCommand(deps.env, runtime),
    homeArgs: path.resolve(deps.home) === defaultHome(deps.env) ? [] : ['--home', path.resolve(deps.home)],
    platform: runtime.platform,
  });
}

async function readManifest(file: string): Promise<Manifest> {
  const text = await readFileOrNull(file);
  const parsed = ManifestSchema.safeParse(text ? JSON.parse(text) : { files: {} });
  return parsed.success ? parsed.data : { files: {}, rules: [] };
}

/** The changed lines between two texts: common lines at both ends left out. */
export function lineDiff(file: string, before: string | null, after: string | null): string {
  const a = before === null ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === null ? [] : after.replace(/\n$/, '').split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  if (start === endA && start === endB) return '';
  return [
    `--- ${before === null ? '/dev/null' : file}`,
    `+++ ${after === null ? '/dev/null' : file}`,
    `@@ line ${start + 1} @@`,
    ...a.slice(start, endA).map((l) => `-${l}`),
    ...b.slice(start, endB).map((l) => `+${l}`),
  ].join('\n');
}

/** The harness's files, each with the edits that apply to it (Gemini keeps both in one file). */
function filesOf(setup: HarnessSetup): Map<string, HarnessSetup['files']> {
  const byPath = new Map<string, HarnessSetup['files']>();
  for (const f of setup.files) byPath.set(f.path, [...(byPath.get(f.path) ?? []), f]);
  return byPath;
}

/** What setup is asked to do (the API's parsed input; projectRule may be left out: false). */
type SetupInput = Omit<ApiParsedInput<'agents.setup'>, 'projectRule'> & { projectRule?: boolean };

/** The project Cursor's rule is for (the open one, or the one chosen) and its memory prompt (`projectRule`). */
export interface SetupProject {
  root: string | null;
  prompt: () => Promise<string>;
}

const manifestFileOf = (home: string, harness: Harness) => path.join(stateDir(home), `${harness}.json`);

export async function runSetup(
  deps: SetupDeps,
  input: SetupInput,
  project?: SetupProject,
): Promise<SetupOutput> {
  if (input.projectRule && input.harness !== 'cursor')
    throw new AppError('invalid_input', 'a project rule is for Cursor only (setup cursor --project-rule)');
  if (input.projectRule && !project?.root)
    throw new AppError(
      'invalid_input',
      'no project: run setup cursor --project-rule in the project (or give --project DIR)',
    );
  const manifestFile = manifestFileOf(deps.home, input.harness);
  const manifest = await readManifest(manifestFile);
  if (input.undo && input.projectRule && project?.root)
    return removeOneRule(input.dryRun, manifestFile, manifest, path.resolve(project.root));
  // Undo finds our entries by their markers: it works even when the CLI is gone.
  const setup = setupFor(deps, input.harness, input.undo ? ['memdesk'] : undefined);
  const backupDir = path.join(stateDir(deps.home), 'backups', input.harness);
  const stamp = new Date(deps.now()).toISOString().replace(/[:.]/g, '-');
  const changes: FileChange[] = [];

  const backup = async (file: string, text: string): Promise<string> => {
    await fs.mkdir(backupDir, { recursive: true });
    const copy = path.join(backupDir, `${stamp}-${path.basename(path.dirname(file))}-${path.basename(file)}`);
    await writeFileAtomic(copy, text);
    return copy;
  };

  for (const [file, edits] of filesOf(setup)) {
    const before = await readFileOrNull(file);
    if (!input.undo) {
      let after = before;
      for (const e of edits) after = e.edit.add(after);
      if (after === before || after === null) {
        changes.push({ path: file, action: 'unchanged', backup: null, diff: '' });
        continue;
      }
      const diff = lineDiff(file, before, after);
      if (input.dryRun) {
        changes.push({ path: file, action: before === null ? 'created' : 'updated', backup: null, diff });
        continue;
      }
      const copy = before === null ? null : await backup(file, before);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, after);
      manifest.files[file] = { backup: copy, written: sha256(after) };
      changes.push({ path: file, action: before === null ? 'created' : 'updated', backup: copy, diff });
      continue;
    }

    // --undo
    if (before === null) {
      changes.push({ path: file, action: 'unchanged', backup: null, diff: '' });
      continue;
    }
    const recorded = manifest.files[file];
    if (recorded && recorded.written === sha256(before)) {
      // Nothing touched the file since setup wrote it: put back exactly what was there.
      const old = recorded.backup === null ? null : await readFileOrNull(recorded.backup);
      const diff = lineDiff(file, before, old);
      if (!input.dryRun) {
        if (old === null) await fs.rm(file, { force: true });
        else await writeFileAtomic(file, old);
        delete manifest.files[file];
      }
      changes.push({ path: file, action: old === null ? 'removed' : 'restored', backup: null, diff });
      continue;
    }
    let after = before;
    for (const e of edits) if (e.edit.has(after)) after = e.edit.remove(after);
    if (after === before) {
      changes.push({ path: file, action: 'unchanged', backup: null, diff: '' });
      continue;
    }
    const diff = lineDiff(file, before, after);
    if (input.dryRun) {
      changes.push({ path: file, action: 'updated', backup: null, diff });
      continue;
    }
    // Changed by someone since setup: take out only our entries, keeping theirs (backed up first).
    const copy = await backup(file, before);
    await writeFileAtomic(file, after);
    delete manifest.files[file];
    changes.push({ path: file, action: 'updated', backup: copy, diff });
  }

  if (input.harness === 'cursor') changes.push(...(await setupCursorRules(input, manifest, project)));

  if (!input.dryRun) await writeManifest(manifestFile, manifest);
  return { harness: input.harness, files: changes, notes: input.undo ? [] : setup.notes };
}

async function writeManifest(file: string, manifest: Manifest): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(manifest, null, 2) + '\n');
}

/**
 * `setup cursor --undo --project-rule` (the Agents page's "Remove the rule"): that project's rule
 * alone goes; Cursor's MCP server and hooks, and the rules of other projects, stay.
 */
async function removeOneRule(
  dryRun: boolean,
  manifestFile: string,
  manifest: Manifest,
  root: string,
): Promise<SetupOutput> {
  const file = cursorRuleFile(root);
  const { action, before } = await removeCursorRule(root, dryRun);
  if (!dryRun && manifest.rules.includes(root)) {
    manifest.rules = manifest.rules.filter((r) => r !== root);
    await writeManifest(manifestFile, manifest);
  }
  return {
    harness: 'cursor',
    files: [
      {
        path: file,
        action,
        backup: null,
        diff: action === 'removed' ? lineDiff(file, before, null) : '',
      },
    ],
    notes: [],
  };
}

/**
 * Cursor's project rule in the open project and in every project setup wrote one in (the Agents
 * page shows each, with its state).
 */
type RuleState = ApiOutput<'agents.connections'>['cursorRules'][number]['state'];

export async function cursorRuleStates(
  deps: SetupDeps,
  openRoot: string | null,
): Promise<ApiOutput<'agents.connections'>['cursorRules']> {
  const open = openRoot ? path.resolve(openRoot) : null;
  const { rules } = await readManifest(manifestFileOf(deps.home, 'cursor'));
  const roots = [...new Set([...(open ? [open] : []), ...rules])];
  return Promise.all(
    roots.map(async (root) => {
      const file = cursorRuleFile(root);
      const text = await readFileOrNull(file).catch(() => null);
      const state: RuleState = text === null ? 'absent' : isOurCursorRule(text) ? 'present' : 'foreign';
      return { root, file, state, open: root === open };
    }),
  );
}

/**
 * Cursor's project rule: written for the open project when asked (and recorded in the manifest);
 * with undo, removed from every project setup wrote one in, and from the open project (only rules
 * Memory Desk wrote: cursor-rule.ts checks).
 */
async function setupCursorRules(
  input: SetupInput,
  manifest: Manifest,
  project: SetupProject | undefined,
): Promise<FileChange[]> {
  const root = project?.root ? path.resolve(project.root) : null;
  if (!input.undo) {
    if (!input.projectRule || !root || !project) return [];
    const file = cursorRuleFile(root);
    const { action, before, after } = await writeCursorRule(root, await project.prompt(), input.dryRun);
    if (!input.dryRun && !manifest.rules.includes(root)) manifest.rules.push(root);
    return [
      { path: file, action, backup: null, diff: action === 'unchanged' ? '' : lineDiff(file, before, after) },
    ];
  }
  const changes: FileChange[] = [];
  for (const at of new Set([...manifest.rules, ...(root ? [root] : [])])) {
    const file = cursorRuleFile(at);
    const { action, before } = await removeCursorRule(at, input.dryRun);
    if (action === 'removed')
      changes.push({ path: file, action, backup: null, diff: lineDiff(file, before, null) });
  }
  if (!input.dryRun) manifest.rules = [];
  return changes;
}

/** Which harnesses have Memory Desk's MCP entry and hooks in their config (the "Connect an agent" panel). */
export async function harnessStatuses(
  deps: SetupDeps,
): Promise<ApiOutput<'agents.connections'>['harnesses']> {
  return Promise.all(
    HARNESSES.map(async (harness) => {
      const setup = setupFor(deps, harness, ['memdesk']);
      const present = { mcp: false, hooks: false };
      for (const f of setup.files) {
        try {
          if (f.edit.has(await readFileOrNull(f.path))) present[f.role] = true;
        } catch {
          // an unreadable or unparsable config: not connected
        }
      }
      return {
        harness,
        name: setup.name,
        ...present,
        support: setup.support,
        files: [...new Set(setup.files.map((f) => f.path))],
      };
    }),
  );
}
