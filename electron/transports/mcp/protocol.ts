/**
 * What `memdesk mcp` says about itself in the initialize handshake, in a module that loads nothing:
 * the front (front.ts) answers initialize with it before the MCP SDK is loaded, and the SDK server
 * (server.ts) is built from the same values. test/mcp/front.test.ts checks that the front's answer
 * equals the SDK server's for every protocol version the SDK supports.
 */
export const MCP_SERVER_NAME = 'memory-desk';
export const MCP_SERVER_VERSION = '0.1.0';
export const MCP_CAPABILITIES = { tools: {}, resources: { listChanged: true } };

/**
 * The protocol versions the bundled SDK (@modelcontextprotocol/sdk) negotiates, newest first: its
 * `SUPPORTED_PROTOCOL_VERSIONS` (the test fails when an SDK update changes them).
 */
export const SUPPORTED_PROTOCOL_VERSIONS = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

export type JsonRpcId = string | number;

export interface InitializeRequest {
  id: JsonRpcId;
  protocolVersion: string;
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

const isId = (id: unknown): id is JsonRpcId =>
  typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));

/**
 * The initialize request in one line read from the client, when it is one the SDK would accept
 * too (the required fields and their types); anything else is left to the SDK.
 */
export function initializeRequestIn(line: string): InitializeRequest | null {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(msg) || msg.jsonrpc !== '2.0' || msg.method !== 'initialize') return null;
  const { id, params } = msg;
  if (!isId(id)) return null;
  if (!isObject(params) || typeof params.protocolVersion !== 'string') return null;
  if (!isObject(params.capabilities) || !isObject(params.clientInfo)) return null;
  if (typeof params.clientInfo.name !== 'string' || typeof params.clientInfo.version !== 'string')
    return null;
  return { id, protocolVersion: params.protocolVersion };
}

/**
 * The requests whose answer depends on nothing known only at run time (not the notes, not the
 * client): the front answers them from the SDK server's own answers, generated at build time
 * (sdk-answers.generated.ts, scripts/mcp-static-answers.ts). tools/list is the one every client
 * asks right after initialize; this server serves no prompts and no resource templates, and says so.
 */
export const FRONT_ANSWERED_METHODS = ['tools/list', 'prompts/list', 'resources/templates/list'] as const;
export type FrontAnsweredMethod = (typeof FRONT_ANSWERED_METHODS)[number];
/** What the SDK server answers to each of them: its result, or its error. */
export type StaticAnswers = Partial<Record<FrontAnsweredMethod, { result: unknown } | { error: unknown }>>;

/**
 * The answer line to a request the front can answer from `answers`: one of the methods, with no
 * params or only a string `cursor` (these lists have one page, so the SDK ignores it). Anything
 * else — `_meta` (progress, related tasks), other params, malformed — is left to the SDK.
 */
export function staticAnswerTo(
  line: string,
  answers: StaticAnswers,
): { id: JsonRpcId; answer: string } | null {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(msg) || msg.jsonrpc !== '2.0' || !isId(msg.id) || typeof msg.method !== 'string') return null;
  const known = Object.hasOwn(answers, msg.method) ? answers[msg.method as FrontAnsweredMethod] : undefined;
  if (!known) return null;
  const { params } = msg;
  if (params !== undefined) {
    if (!isObject(params)) return null;
    for (const [key, value] of Object.entries(params))
      if (key !== 'cursor' || typeof value !== 'string') return null;
  }
  return { id: msg.id, answer: JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...known }) + '\n' };
}

/** The initialize answer, as the SDK's Server builds it: the client's version if supported, else the newest. */
export function initializeAnswer(request: InitializeRequest, instructions: string): string {
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(request.protocolVersion)
    ? request.protocolVersion
    : SUPPORTED_PROTOCOL_VERSIONS[0]!;
  const result = {
    protocolVersion,
    capabilities: MCP_CAPABILITIES,
    serverInfo: { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    ...(instructions ? { instructions } : {}),
  };
  return JSON.stringify({ jsonrpc: '2.0', id: request.id, result }) + '\n';
}
