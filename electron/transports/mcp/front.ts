import { PassThrough, type Readable, type Writable } from 'node:stream';
import {
  initializeAnswer,
  initializeRequestIn,
  staticAnswerTo,
  type InitializeRequest,
  type JsonRpcId,
  type StaticAnswers,
} from './protocol.js';
import { SDK_STATIC_ANSWERS } from './sdk-answers.generated.js';

/**
 * The first moments of `memdesk mcp`, before the MCP SDK (with ajv and zod) and the rest of the CLI
 * are loaded: it reads the client's lines, and when the first is `initialize` and the
 * `instructions` are known (the prompt snapshot), answers it at once; after that, until the SDK
 * server takes over, it answers the requests whose answer is fixed at build time (tools/list…:
 * protocol.ts's FRONT_ANSWERED_METHODS, from the SDK server's own answers). The SDK server then
 * takes over the same stdin and stdout (server.ts): it reads everything from the first byte
 * (`input`), so its own state (the client's capabilities, the negotiated version) is what it would
 * be without the front, and its answers to requests the front answered already are not sent twice
 * (`alreadyAnswered`). Only newline-delimited JSON-RPC on stdio, as the SDK's stdio transport
 * speaks it.
 */
export interface McpFrontOptions {
  /** The client's side: stdin. */
  input: Readable;
  /** stdout: nothing else may write to it. */
  output: Writable;
  /** The memory prompt saved by the last start (prompt-snapshot.ts); null when there is none. */
  snapshot: Promise<string | null>;
  /** The answers fixed at build time; the generated SDK answers unless a test gives others. */
  staticAnswers?: StaticAnswers;
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
  private readonly staticAnswers: StaticAnswers;
  /** The bytes of the line being read; null once the front reads no more (handed over, or stdin ended). */
  private pending: Buffer[] | null = [];
  private firstLineRead = false;
  private request: InitializeRequest | null = null;
  private instructions: string | null = null;
  private initializeAnswered = false;
  /** Ids of the requests the front answered, whose answers from the SDK server are not sent again. */
  private readonly answered = new Set<JsonRpcId>();

  constructor(options: McpFrontOptions) {
    this.output = options.output;
    this.snapshot = options.snapshot;
    this.staticAnswers = options.staticAnswers ?? SDK_STATIC_ANSWERS;
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    options.input.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      // Read (and maybe answered) before the SDK can see it, so its answer is known to be a repeat.
      if (this.pending) this.readLines(bytes);
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
   * The SDK server starts reading `input`: from now on it answers everything. Every line the front
   * read before this was answered by it or not at all, so each request gets exactly one answer.
   */
  handOver(): void {
    this.pending = null;
  }

  /**
   * Whether a message the SDK server sends is its answer to a request the front answered already:
   * that one is not sent again (once; request ids are never reused in a session).
   */
  alreadyAnswered(message: object): boolean {
    if (!('id' in message) || !this.answered.has(message.id as JsonRpcId)) return false;
    if (!('result' in message) && !('error' in message)) return false;
    this.answered.delete(message.id as JsonRpcId);
    return true;
  }

  private readLines(bytes: Buffer): void {
    let start = 0;
    for (let nl = bytes.indexOf(0x0a); nl >= 0 && this.pending; nl = bytes.indexOf(0x0a, start)) {
      this.pending.push(bytes.subarray(start, nl));
      const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
      this.pending = [];
      start = nl + 1;
      this.readLine(line);
    }
    if (this.pending && start < bytes.length) this.pending.push(bytes.subarray(start));
  }

  private readLine(line: string): void {
    if (!this.firstLineRead) {
      this.firstLineRead = true;
      this.request = initializeRequestIn(line);
      if (this.request) return this.answerIfAsked();
      // Not an initialize the front can answer: the SDK answers everything.
      this.pending = null;
      return this.markReady();
    }
    // Before its initialize answer the front answers nothing else (the SDK answers in order then).
    if (!this.initializeAnswered) return;
    const known = staticAnswerTo(line, this.staticAnswers);
    if (!known || this.answered.has(known.id)) return;
    this.output.write(known.answer);
    this.answered.add(known.id);
  }

  private answerIfAsked(): void {
    if (!this.request || this.instructions === null || this.initializeAnswered) return;
    this.output.write(initializeAnswer(this.request, this.instructions));
    this.answered.add(this.request.id);
    this.initializeAnswered = true;
    this.request = null;
    this.markReady();
  }

  private endInput(): void {
    this.pending = null;
    this.input.end();
    this.markReady();
  }
}
