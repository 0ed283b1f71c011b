import { PassThrough, type Readable, type Writable } from 'node:stream';
import { initializeAnswer, initializeRequestIn, type InitializeRequest, type JsonRpcId } from './protocol.js';

/**
 * The first few milliseconds of `memdesk mcp`, before the MCP SDK (with ajv and zod) and the rest of
 * the CLI are loaded: it reads the client's first line, and when that is `initialize` and the
 * `instructions` are known (the prompt snapshot), answers it at once. Then the SDK server takes over
 * the same stdin and stdout (server.ts): it reads everything from the first byte (`input`), so its
 * own state (the client's capabilities, the negotiated version) is what it would be without the
 * front, and its answer to the initialize already answered is not sent twice (`alreadyAnswered`).
 * Only newline-delimited JSON-RPC on stdio, as the SDK's stdio transport speaks it.
 */
export interface McpFrontOptions {
  /** The client's side: stdin. */
  input: Readable;
  /** stdout: nothing else may write to it. */
  output: Writable;
  /** The memory prompt saved by the last start (prompt-snapshot.ts); null when there is none. */
  snapshot: Promise<string | null>;
}

export class McpFront {
  /** Everything the client sent, from the first byte, for the SDK's stdio transport. */
  readonly input = new PassThrough();
  readonly output: Writable;
  readonly snapshot: Promise<string | null>;
  /**
   * Settles when the rest may load: initialize answered, or it cannot be answered here (no
   * snapshot, a first message that is not initialize, stdin closed).
   */
  readonly ready: Promise<void>;
  private markReady!: () => void;
  /** The first line while it is being read; null once it was read. */
  private firstLine: Buffer[] | null = [];
  private request: InitializeRequest | null = null;
  private instructions: string | null = null;
  private answeredId: JsonRpcId | null = null;

  constructor(options: McpFrontOptions) {
    this.output = options.output;
    this.snapshot = options.snapshot;
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    options.input.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      // Read (and maybe answered) before the SDK can see it, so its answer is known to be a repeat.
      if (this.firstLine) this.readFirstLine(bytes);
      this.input.write(bytes);
    });
    options.input.once('end', () => this.endInput());
    // A broken stdin ends the session the way a closed one does.
    options.input.on('error', () => this.endInput());
    options.snapshot.then(
      (prompt) => (prompt === null ? this.markReady() : this.answer(prompt)),
      () => this.markReady(),
    );
  }

  /**
   * Answers the client's initialize with these instructions, now or as soon as it arrives. The
   * first instructions given win: the SDK server must be built with the same ones.
   */
  answer(instructions: string): void {
    this.instructions ??= instructions;
    this.answerIfAsked();
  }

  /**
   * Whether a message the SDK server sends is its answer to the initialize the front answered
   * already: that one is not sent again (once; request ids are never reused in a session).
   */
  alreadyAnswered(message: object): boolean {
    if (this.answeredId === null || !('id' in message) || message.id !== this.answeredId) return false;
    if (!('result' in message) && !('error' in message)) return false;
    this.answeredId = null;
    return true;
  }

  private readFirstLine(bytes: Buffer): void {
    const nl = bytes.indexOf(0x0a);
    this.firstLine!.push(nl < 0 ? bytes : bytes.subarray(0, nl));
    if (nl < 0) return;
    const line = Buffer.concat(this.firstLine!).toString('utf8').replace(/\r$/, '');
    this.firstLine = null;
    this.request = initializeRequestIn(line);
    if (this.request) this.answerIfAsked();
    else this.markReady(); // not an initialize the front can answer: the SDK answers everything
  }

  private answerIfAsked(): void {
    if (!this.request || this.instructions === null || this.answeredId !== null) return;
    this.output.write(initializeAnswer(this.request, this.instructions));
    this.answeredId = this.request.id;
    this.request = null;
    this.markReady();
  }

  private endInput(): void {
    this.firstLine = null;
    this.input.end();
    this.markReady();
  }
}
