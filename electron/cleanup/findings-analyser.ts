import type { Worker } from 'node:worker_threads';
import type { Scope } from '../../shared/note.js';
import { noteIdKey } from '../../shared/note-id.js';
import type { MemoryCore, StoredNote } from '../memory/types.js';
import { startWorker } from '../memory/worker-pool/pool.js';
import type { ContentAnalysis } from './analyze-scope.js';
import {
  analyseRequest,
  FINDINGS_WORKER,
  type ContentRequest,
  type ContentResponse,
} from './findings-worker.js';
import { onUnexpectedError } from '../memory/unexpected-error.js';

/**
 * The content analysis of 待整理 (same topic, broken links, relative paths, too long) for one core,
 * kept per store version: a store's `list()` is the same array until the store changes, so a
 * listing after no change is a lookup. In a long-running process (`worker: true`: the app, the web
 * bridge) it runs in a worker thread, so no request to the bridge waits behind it
 * (docs/performance.md); a one-shot CLI runs it in-thread. If the worker cannot start or dies, the
 * analysis runs in-thread — the answer is the same.
 */
export class FindingsAnalyser {
  private worker: Worker | null = null;
  private workerFailed = false;
  private seq = 0;
  private pending = new Map<
    number,
    { req: ContentRequest; resolve: (c: ContentAnalysis) => void; reject: (e: Error) => void }
  >();
  private cache = new Map<
    Scope,
    { notes: StoredNote[]; others: StoredNote[]; result: Promise<ContentAnalysis> }
  >();

  constructor(
    private readonly core: MemoryCore,
    private readonly opts: { worker: boolean },
  ) {}

  /** The scope's content analysis for its notes now (computed once per version of both stores). */
  analyse(scope: Scope): Promise<ContentAnalysis> {
    const notes = this.core.store(scope)?.list() ?? [];
    // Links resolve in either scope: the other store's version matters too.
    const others = this.core.store(scope === 'project' ? 'user' : 'project')?.list() ?? [];
    const cached = this.cache.get(scope);
    if (cached && cached.notes === notes && cached.others === others) return cached.result;
    const req: Omit<ContentRequest, 'seq'> = {
      scope,
      notes: notes.map((n) => ({ id: n.id, summary: n.summary, tags: n.tags, body: n.body })),
      idKeys: [...notes, ...others].map((n) => noteIdKey(n.id)),
      projectRoot: scope === 'project' ? (this.core.project?.root ?? null) : null,
    };
    const result = this.run(req);
    this.cache.set(scope, { notes, others, result });
    // A failed analysis is not kept: the next listing tries again.
    result.catch(() => {
      if (this.cache.get(scope)?.result === result) this.cache.delete(scope);
    });
    return result;
  }

  /** Whether a worker thread is running the analysis (false in-thread, or after the worker failed). */
  get inWorker(): boolean {
    return this.worker !== null;
  }

  /** Stops the worker thread (it is unref'd: a process never waits for it). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.workerFailed = true;
    await w?.terminate();
    for (const [seq, p] of this.pending) {
      this.pending.delete(seq);
      p.reject(new Error('the findings analysis was stopped'));
    }
  }

  private run(body: Omit<ContentRequest, 'seq'>): Promise<ContentAnalysis> {
    const worker = this.opts.worker ? this.startWorker() : null;
    if (!worker) return Promise.resolve().then(() => analyseRequest(body));
    const req: ContentRequest = { ...body, seq: ++this.seq };
    return new Promise((resolve, reject) => {
      this.pending.set(req.seq, { req, resolve, reject });
      worker.postMessage(req);
    });
  }

  private startWorker(): Worker | null {
    if (this.worker || this.workerFailed) return this.worker;
    try {
      const worker = startWorker({ name: 'findings-worker', from: import.meta.url }, FINDINGS_WORKER);
      worker.unref();
      worker.on('message', (res: ContentResponse) => {
        const p = this.pending.get(res.seq);
        if (!p) return;
        this.pending.delete(res.seq);
        if ('content' in res) p.resolve(res.content);
        else p.reject(new Error(res.error));
      });
      const failed = () => {
        if (this.worker !== worker) return;
        this.worker = null;
        this.workerFailed = true;
        // Whatever was asked of it is answered in-thread.
        for (const [seq, p] of this.pending) {
          this.pending.delete(seq);
          try {
            p.resolve(analyseRequest(p.req));
          } catch (err) {
            p.reject(err as Error);
          }
        }
      };
      worker.on('error', failed);
      worker.on('exit', failed);
      this.worker = worker;
      return worker;
    } catch (err) {
      onUnexpectedError(err, 'findings worker: start'); // the analysis runs in-thread instead
      this.workerFailed = true;
      return null;
    }
  }
}
