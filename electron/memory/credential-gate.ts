/**
 * A cheap gate in front of the credential check (credentials.ts costs ~0.9 ms a note, mostly
 * secretlint): false only for text in which no rule of either layer can match. Every rule needs
 * one of these — a run of 16 or more token characters (every key and token shape, Bearer tokens,
 * the random-looking-key rule), a password in a URL, a PEM header, a Basic header, a JWT, or a
 * word that names a secret (the assignment rule's keys: password, secret, token, api key, …) —
 * so text without any of them skips the check. Ordinary prose, code without keys and short lists
 * do. `test/security/credential-gate.test.ts` holds the gate to every sample of the labelled corpus.
 */
const LONG_RUN = /[A-Za-z0-9_\-+/=.~%:]{16,}/;
const MARKERS =
  /-----BEGIN|:\/\/[^\s/@]*@|\bBasic[ \t]|eyJ|pass|pwd|secret|token|api[_-]?key|apikey|access|private|account|auth|credential|signing|encryption|master|session|sig=/i;

export function mayContainCredentials(text: string): boolean {
  return LONG_RUN.test(text) || MARKERS.test(text);
}
