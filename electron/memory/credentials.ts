import { AppError } from '../../shared/errors.js';
import { localCredentialFindings, type RawFinding } from './credential-rules.js';

/**
 * Credential detection for every path that writes notes (remember, edit, retain, cleanup drafts,
 * zip and Mnemopi import, backup restore) and for marking pulled notes. Notes are plain files that
 * sync, so a credential in one is refused (`refuseCredentials`) or masked (`maskCredentials`).
 * Two layers: secretlint's maintained recommended rules, and a local layer for shapes it misses
 * (credential-rules.ts). All findings are reported at once. docs/security.md lists the corpus test.
 */
export interface CredentialFinding {
  /** What it looks like, for the message: "an API key (sk-…)". */
  kind: string;
  /** The first characters of the match, enough to find it, never the whole secret. */
  excerpt: string;
  index: number;
  length: number;
}

/** A finding in one named part of a note ("the body", "the tags", "row 7 metadata_json"…). */
export interface FieldCredentialFinding extends CredentialFinding {
  field: string;
}

/** Texts longer than this are checked in overlapping windows so one huge input stays linear. */
const WINDOW = 256 * 1024;
const OVERLAP = 4096;

export async function findCredentials(text: string): Promise<CredentialFinding[]> {
  // secretlint (~200 KB of code) loads on the first check: commands that write nothing
  // (recall, list, the per-message hooks) never pay for it (docs/performance.md).
  const { secretlintFindings } = await import('./credential-secretlint.js');
  const raw: RawFinding[] = [];
  for (let start = 0; start < text.length; start += WINDOW - OVERLAP) {
    const part = text.slice(start, start + WINDOW);
    for (const f of [...(await secretlintFindings(part)), ...localCredentialFindings(part)])
      raw.push({ ...f, index: f.index + start });
    if (start + WINDOW >= text.length) break;
  }
  // secretlint's findings come first, so its (more specific) name wins where both saw the same text.
  const kept: RawFinding[] = [];
  for (const f of raw) {
    const overlaps = kept.some((k) => f.index < k.index + k.length && k.index < f.index + f.length);
    if (!overlaps && f.length > 0) kept.push(f);
  }
  return kept
    .sort((a, b) => a.index - b.index)
    .map((f) => {
      const secret = text.slice(f.index, f.index + f.length);
      return {
        kind: f.kind,
        excerpt: f.showWhole ? secret : excerptOf(secret),
        index: f.index,
        length: f.length,
      };
    });
}

export async function findFieldCredentials(
  fields: ReadonlyArray<readonly [field: string, text: string | undefined]>,
): Promise<FieldCredentialFinding[]> {
  const out: FieldCredentialFinding[] = [];
  for (const [field, text] of fields) {
    if (!text) continue;
    for (const f of await findCredentials(text)) out.push({ ...f, field });
  }
  return out;
}

/**
 * One sentence for people naming every finding, grouped by field (never a whole secret):
 * `the body looks like it contains a GitHub Token ("ghp_ab…") and …; notes are plain files …`.
 */
export function credentialsMessage(findings: readonly FieldCredentialFinding[]): string {
  const fields = [...new Set(findings.map((f) => f.field))];
  const parts = fields.map((field) => {
    const list = findings.filter((f) => f.field === field).map((f) => `${f.kind} ("${f.excerpt}")`);
    const shown = list.length > 5 ? [...list.slice(0, 5), `${list.length - 5} more`] : list;
    return `${field} looks like it contains ${shown.join(' and ')}`;
  });
  return `${parts.join('; ')}; notes are plain files that may sync, so credentials are refused — remove ${findings.length === 1 ? 'it' : 'them'} and try again`;
}

/** Throws `refused` naming every credential found in the fields. */
export async function refuseCredentials(
  fields: ReadonlyArray<readonly [field: string, text: string | undefined]>,
): Promise<void> {
  const findings = await findFieldCredentials(fields);
  if (findings.length > 0) throw new AppError('refused', credentialsMessage(findings));
}

/**
 * For notes that arrive from elsewhere and must not be refused (a sync pull: the note is the
 * user's): a warning naming what was found, or null. The caller keeps the note and shows this.
 */
export async function credentialWarning(
  noteId: string,
  fields: ReadonlyArray<readonly [field: string, text: string | undefined]>,
): Promise<string | null> {
  const findings = await findFieldCredentials(fields);
  if (findings.length === 0) return null;
  const list = findings.map((f) => `${f.kind} in ${f.field} ("${f.excerpt}")`).join('; ');
  return `note "${noteId}" looks like it contains ${list}; it is kept, but notes are plain files that sync — consider removing it`;
}

/** Replaces every credential with `[redacted]` (for untrusted drafts such as model output). */
export async function maskCredentials(text: string): Promise<string> {
  let out = '';
  let at = 0;
  for (const f of await findCredentials(text)) {
    out += text.slice(at, f.index) + '[redacted]';
    at = f.index + f.length;
  }
  return out + text.slice(at);
}

function excerptOf(secret: string): string {
  return secret.length <= 6 ? '…' : `${secret.slice(0, Math.min(6, Math.floor(secret.length / 3)))}…`;
}
