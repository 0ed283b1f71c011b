/**
 * Recall never blocks a message, so the recall engine returns its failures instead of throwing.
 * They must not vanish either: one line on stderr naming the failure — never the message or any
 * note's contents (an error message is clipped to its first line and 200 characters).
 */
export function recallErrorLine(error: unknown): string {
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const first = (raw.split(/\r?\n/, 1)[0] ?? '').slice(0, 200);
  return `memdesk: recall failed, nothing attached (${first})\n`;
}

export function logRecallError(
  error: unknown,
  write: (line: string) => void = (l) => process.stderr.write(l),
): void {
  write(recallErrorLine(error));
}
