import * as z from 'zod/mini';

/**
 * The warm answer's wire format (docs/agents.md, "Warm answers"): a long-running memdesk process of
 * a home and project (`memdesk mcp`, the web bridge) answers a one-shot `memdesk recall` or
 * `memdesk hook` over a local socket, with the same CLI code on its open notes. One JSON request
 * line from the client, one JSON reply line from the server. zod/mini: the client checks both
 * before it loads anything else, so this file's whole graph stays a few KB (test/cli/lazy-load).
 */
export const WARM_PROTOCOL_VERSION = 1;

/** The commands a warm process answers: the per-message ones. */
export const WARM_COMMANDS = ['recall', 'hook'] as const;

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
   * Not answered here: the client runs the command cold. `reason` names why in a few words (never
   * a token, prompt or note text): wrong token, another home or project, config changed, too late.
   */
  z.object({
    v: z.literal(WARM_PROTOCOL_VERSION),
    status: z.literal('cold'),
    reason: z.string(),
  }),
]);
export type WarmReply = z.infer<typeof WarmReplySchema>;
