/**
 * Credential detection for anything that writes notes (remember, edit, retain, the extractor,
 * cleanup drafts). Notes are plain files that sync, so a credential in one is refused
 * (`findCredential`) or masked (`maskCredentials`). Patterns favour well-known token shapes and
 * explicit assignments; a word like "password" on its own is fine.
 */
export interface CredentialFinding {
  /** What it looks like, for the message: "an OpenAI-style API key (sk-…)". */
  kind: string;
  /** The first characters of the match, enough to find it, never the whole secret. */
  excerpt: string;
  index: number;
  length: number;
}

interface Pattern {
  kind: string;
  re: RegExp;
  /** Group holding the secret itself (defaults to the whole match). */
  group?: number;
  accept?: (secret: string) => boolean;
  /** The match names no secret itself (a PEM header), so it may be shown whole. */
  showWhole?: boolean;
}

const PLACEHOLDER =
  /^(?:<.*>|\$\{?.*|\{\{.*|\*+|x{3,}|\.{3,}|…|changeme|redacted|\[redacted\]|null|none|undefined|true|false|string|number|boolean|str|int|env|process\.env.*|os\.environ.*|your[_-].*|example.*)$/i;

const PATTERNS: Pattern[] = [
  {
    kind: 'a private key (PEM)',
    re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
    showWhole: true,
  },
  { kind: 'an API key (sk-…)', re: /\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'a Stripe key', re: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'a GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: 'an AWS access key id', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'a Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'a Google API key', re: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'a JSON Web Token', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    kind: 'a password or secret in an assignment',
    re: /\b(?:password|passwd|pwd|passphrase|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret[_-]?key|private[_-]?key|access[_-]?key(?:[_-]?id)?)\b["']?\s*(?:=|:)\s*["']?([^\s"'`,;]{6,})/gi,
    group: 1,
    accept: (secret) => !PLACEHOLDER.test(secret),
  },
];

export function findCredentials(text: string): CredentialFinding[] {
  const found: CredentialFinding[] = [];
  for (const pattern of PATTERNS) {
    pattern.re.lastIndex = 0;
    for (const match of text.matchAll(pattern.re)) {
      const secret = pattern.group !== undefined ? match[pattern.group] : match[0];
      if (secret === undefined) continue;
      if (pattern.accept && !pattern.accept(secret)) continue;
      const index = (match.index ?? 0) + (pattern.group !== undefined ? match[0].lastIndexOf(secret) : 0);
      found.push({
        kind: pattern.kind,
        excerpt: pattern.showWhole ? secret : excerptOf(secret),
        index,
        length: secret.length,
      });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

export function findCredential(text: string): CredentialFinding | null {
  return findCredentials(text)[0] ?? null;
}

/** A sentence for people: why the text is refused. `field` names where it was found. */
export function credentialMessage(finding: CredentialFinding, field = 'the note'): string {
  return `${field} looks like it contains ${finding.kind} ("${finding.excerpt}"); notes are plain files that may sync, so credentials are refused — remove it and try again`;
}

/** Replaces every credential with `[redacted]` (for untrusted drafts such as model output). */
export function maskCredentials(text: string): string {
  const findings = findCredentials(text);
  let out = '';
  let at = 0;
  for (const f of findings) {
    if (f.index < at) continue;
    out += text.slice(at, f.index) + '[redacted]';
    at = f.index + f.length;
  }
  return out + text.slice(at);
}

function excerptOf(secret: string): string {
  return secret.length <= 6 ? '…' : `${secret.slice(0, Math.min(6, Math.floor(secret.length / 3)))}…`;
}
