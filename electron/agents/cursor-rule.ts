import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { textOrNull } from './recall/prompt-snapshot.js';
import { gitCheckout } from './retain/bank-scope.js';

/**
 * Cursor's per-project memory rule: `<project>/.cursor/rules/memory-desk.mdc`, a project rule with
 * `alwaysApply: true`, which Cursor's docs say is included at the start of the model context of
 * every chat — so the memory prompt (guidance + index) is there even in a turn in which the agent
 * uses no tool, where no documented Cursor hook can add anything (docs/agents.md, Cursor).
 *
 * Written only when asked (`memdesk setup cursor --project-rule`), then kept current by every build
 * of the memory prompt in that project (agent-recall.ts: the MCP server Cursor runs rebuilds it
 * whenever notes change; the sessionStart hook too), atomically. Credentials are masked in it
 * (a hand-edited note may hold one; the file is plain text in a project folder). Kept out of git
 * by a line in the repository's own `info/exclude` (never committed by accident: it lists user
 * notes too). `--undo` removes it and that line; a file not written by Memory Desk is never touched.
 */
export const CURSOR_RULE_PATH = path.join('.cursor', 'rules', 'memory-desk.mdc');
const MARK = '<!-- memory-desk:';
const DESCRIPTION = "Memory Desk: this project's memory (guidance and index of the notes)";

export function cursorRuleFile(projectRoot: string): string {
  return path.join(projectRoot, CURSOR_RULE_PATH);
}

/** Whether a rule file's text is Memory Desk's own (only those are rewritten or removed). */
export function isOurCursorRule(text: string): boolean {
  return text.startsWith('---\n') && text.includes(`\n${MARK} `);
}

const sourceStamp = (prompt: string) => createHash('sha256').update(prompt).digest('hex').slice(0, 24);

/** The rule's text for a memory prompt: frontmatter, the marker with the prompt's stamp, the prompt (credentials masked). */
export async function cursorRuleText(prompt: string): Promise<string> {
  // secretlint loads here only: when a rule is written, not on every prompt build.
  const { maskCredentials } = await import('../memory/credentials.js');
  return [
    '---',
    `description: ${DESCRIPTION}`,
    'alwaysApply: true',
    '---',
    `${MARK} written by \`memdesk setup cursor --project-rule\` and rewritten when the notes change; edits here are lost. Remove it with \`memdesk setup cursor --undo\`. source ${sourceStamp(prompt)} -->`,
    '',
    await maskCredentials(prompt.trimEnd()),
    '',
  ].join('\n');
}

/**
 * Keeps the project's rule current with this prompt when it is there and ours; otherwise does
 * nothing (one failed open per prompt build in a project without one). Never throws for the
 * caller's sake: the rule is a copy, the prompt was built either way.
 */
export async function refreshCursorRule(projectRoot: string, prompt: string): Promise<void> {
  const file = cursorRuleFile(projectRoot);
  const text = await textOrNull(file);
  if (text === null || !isOurCursorRule(text) || text.includes(` source ${sourceStamp(prompt)} -->`)) return;
  await writeFileAtomic(file, await cursorRuleText(prompt));
}

export type CursorRuleChange = 'created' | 'updated' | 'unchanged' | 'removed';

/** Writes (or rewrites) the project's rule; refuses to replace a file of the same name that is not ours. */
export async function writeCursorRule(
  projectRoot: string,
  prompt: string,
  dryRun: boolean,
): Promise<{ action: CursorRuleChange; before: string | null; after: string }> {
  const file = cursorRuleFile(projectRoot);
  const before = await textOrNull(file);
  if (before !== null && !isOurCursorRule(before))
    throw new Error(`${file} exists and was not written by Memory Desk: left as it is`);
  const after = await cursorRuleText(prompt);
  if (before === after) return { action: 'unchanged', before, after };
  if (!dryRun) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, after);
    await excludeFromGit(projectRoot, true);
  }
  return { action: before === null ? 'created' : 'updated', before, after };
}

/** Removes the project's rule when it is ours (and its git exclude line). */
export async function removeCursorRule(
  projectRoot: string,
  dryRun: boolean,
): Promise<{ action: CursorRuleChange; before: string | null }> {
  const file = cursorRuleFile(projectRoot);
  const before = await textOrNull(file);
  if (before === null || !isOurCursorRule(before)) return { action: 'unchanged', before };
  if (!dryRun) {
    await fs.rm(file, { force: true });
    await excludeFromGit(projectRoot, false);
  }
  return { action: 'removed', before };
}

/**
 * Adds (or takes out) the rule's path in the repository's `info/exclude` — git's own per-clone
 * ignore file, never committed — so `git add .` leaves the rule out. Outside git, nothing.
 */
async function excludeFromGit(projectRoot: string, add: boolean): Promise<void> {
  const checkout = gitCheckout(projectRoot);
  if (!checkout) return;
  const line = '/' + path.relative(checkout.root, cursorRuleFile(projectRoot)).split(path.sep).join('/');
  const file = path.join(checkout.commonDir, 'info', 'exclude');
  const before = (await textOrNull(file)) ?? '';
  const lines = before.split('\n');
  const has = lines.includes(line);
  if (add === has) return;
  const after = add
    ? `${before}${before === '' || before.endsWith('\n') ? '' : '\n'}${line}\n`
    : lines.filter((l) => l !== line).join('\n');
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, after);
}
