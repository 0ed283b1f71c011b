import { readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ownerPaths } from './paths.js';
import { writeWhole } from './requests.js';
import { unlessMissing } from '../../memory/unexpected-error.js';

/**
 * The desktop app keeps its sign-in in the system keychain (safeStorage), which no other process
 * can read — by design: the refresh token never lands in a file. So an MCP server or a CLI run
 * that owns sync on a home signed in only in the app cannot sync; copying the app's token to the
 * CLI's file would undo the keychain's protection, so it is not done. What is done: the app
 * leaves this marker — the origin only, no secret — while it is signed in, so every other process
 * can say plainly why nothing syncs and what to do (sign in for agents too: `memdesk login`,
 * their own revocable session).
 */
const MarkerSchema = z.object({ origin: z.string() });
const NAME = 'app-signed-in';

function markerFile(home: string): string {
  return path.join(ownerPaths(home).dir, `${NAME}.json`);
}

/** The app: signed in to `origin` (marker written when it changed) or not (marker removed). */
export function markAppSignIn(home: string, origin: string | null): void {
  if (appSignIn(home) === origin) return;
  if (origin !== null) return writeWhole(ownerPaths(home).dir, NAME, { origin });
  try {
    unlinkSync(markerFile(home));
  } catch (err) {
    unlessMissing(err, 'app sign-in marker: remove');
  }
}

/** The origin the desktop app is signed in to on this home, or null. */
export function appSignIn(home: string): string | null {
  try {
    const parsed = MarkerSchema.safeParse(JSON.parse(readFileSync(markerFile(home), 'utf8')));
    return parsed.success ? parsed.data.origin : null;
  } catch (err) {
    if (!(err instanceof SyntaxError)) unlessMissing(err, 'app sign-in marker: read');
    return null;
  }
}

/** What a process without a sign-in of its own says when the app holds the home's sign-in. */
export function appOnlySignInMessage(origin: string): string {
  return (
    `signed in to ${origin} in the desktop app only: the app keeps its sign-in in the system keychain, ` +
    `which agents' processes (memdesk mcp, the memdesk CLI, hooks) cannot read, so notes they write ` +
    `sync when the desktop app next runs. To let them sync while the app is closed, sign in for them too: ` +
    `memdesk login --origin ${origin}`
  );
}
