import * as z from 'zod/mini';

/**
 * The warm answer's wire format (docs/agents.md, "Warm answers"): a long-running memdesk process of
 * a home and project (`memdesk mcp`, the web bridge) answers a one-shot `memdesk recall`, `hook`,
 * `list` or `search` over a local socket, with the same CLI code on its open notes. JSON lines:
 * the client's request; for a hook that changes something, the server's claim and the client's
 * "claimed"; then the server's reply. zod/mini: the client checks every line before it loads
 * anything else, so this file's whole graph stays a few KB (test/cli/lazy-load).
 */
export const WARM_PROTOCOL_VERSION = 2;

/** The commands a warm process answers: the per-message ones and the read-only note listings. */
export const WARM_COMMANDS = ['recall', 'hook', 'list', 'search'] as const;

/** What a server of this home and project writes for clients to find it (0600, in a 0700 directory). */
export const WarmAdvertisementSchema = z.object({
  v: z.literal(WARM_PROTOCOL_VERSION),
  pid: z.number().check(z.int(), z.positive()),
  /** The process's start as the system records it (process-identity.ts): a reused pid differs. */
  start: z.nullable(z.string()),
  /** A Unix domain socket path, or a Windows named pipe (`\\.\pipe\…`). */
  socket: z.string().check(z.minLength(1)),
  /** Random, 32 bytes base64url: required on every request. */
  token: z.string().check(z.minLength(32)),
  home: z.string(),
  projectRoot: z.string(),
});
export type WarmAdvertisement = z.infer<typeof WarmAdvertisementSchema>;

export const WarmRequestSchema = z.object({
  v: z.literal(WARM_PROTOCOL_VERSION),
  token: z.string(),
  home: z.string(),
  projectRoot: z.string(),
  /** The client's config overrides from the environment (warm-env.ts): a server with others refuses. */
  envKey: z.string(),
  command: z.enum(WARM_COMMANDS),
  /** The command's words and options after the global ones (`recall`, `MESSAGE`, `--attached`, …). */
  args: z.array(z.string()),
  json: z.boolean(),
  /** The client's stdin, read whole (a hook's JSON); null when it is a terminal. */
  stdin: z.nullable(z.string()),
});
export type WarmRequest = z.infer<typeof WarmRequestSchema>;

export const WarmReplySchema = z.discriminatedUnion('status', [
  /** The command's whole output, exactly as the cold path would print it. */
  z.object({
    v: z.literal(WARM_PROTOCOL_VERSION),
    status: z.literal('answer'),
    exitCode: z.number().check(z.int()),
    stdout: z.string(),
    stderr: z.string(),
  }),
  /**
   * Not answered here, and nothing was changed: the client runs the command cold. `reason` names
   * why in a few words (never a token, prompt or note text): wrong token, another home or project,
   * the caller gave up before the claim.
   */
  z.object({
    v: z.literal(WARM_PROTOCOL_VERSION),
    status: z.literal('cold'),
    reason: z.string(),
  }),
  /**
   * Before its first lasting change (usage counts, session state) a hook asks the client whether
   * it still waits. The client answers WarmClaimed if it has not given up, and from then on never
   * runs the hook cold; one that has given up has closed the connection. So a hook is counted by
   * exactly one side, whatever the timing (electron/agents/hooks/effects-gate.ts).
   */
  z.object({
    v: z.literal(WARM_PROTOCOL_VERSION),
    status: z.literal('claim'),
  }),
]);
export type WarmReply = z.infer<typeof WarmReplySchema>;

/** The client's answer to a claim: the server may change things; the client will not run it cold. */
export const WarmClaimedSchema = z.object({
  v: z.literal(WARM_PROTOCOL_VERSION),
  claimed: z.literal(true),
});
export type WarmClaimed = z.infer<typeof WarmClaimedSchema>;

/** One message as it goes on the wire: JSON and a newline (JSON.stringify never writes one). */
export function jsonLine(message: unknown): string {
  return JSON.stringify(message) + '\n';
}

/**
 * Reads JSON lines from a stream's text, both ends of the socket: `push` each chunk; every whole
 * line is handed to `onLine` parsed (undefined when it is not JSON). `push` returns false once the
 * unfinished line is longer than `maxChars` (the caller drops the connection).
 */
export function readJsonLines(
  onLine: (message: unknown) => void,
  maxChars = Number.POSITIVE_INFINITY,
): (chunk: string) => boolean {
  let buffered = '';
  return (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        message = undefined;
      }
      onLine(message);
    }
    return buffered.length <= maxChars;
  };
}
