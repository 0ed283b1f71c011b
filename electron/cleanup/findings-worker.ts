import { parentPort, workerData } from 'node:worker_threads';
import type { Scope } from '../../shared/note.js';
import { noteIdKey } from '../../shared/note-id.js';
import { extractLinks } from '../memory/links.js';
import { analyseContent, type ContentAnalysis } from './analyze-scope.js';

/** A scope's notes as sent to the worker (links are derived here, off the request path). */
export interface ContentRequest {
  seq: number;
  scope: Scope;
  notes: Array<{ id: string; summary: string; tags: string[]; body: string }>;
  /** noteIdKey of every note of both scopes: a `[[link]]` resolves when its key is here. */
  idKeys: string[];
  projectRoot: string | null;
}

export type ContentResponse = { seq: number; content: ContentAnalysis } | { seq: number; error: string };

/** The content analysis of a request (what the worker thread runs; the fallback runs it in-thread). */
export function analyseRequest(req: Omit<ContentRequest, 'seq'>): ContentAnalysis {
  const known = new Set(req.idKeys);
  return analyseContent({
    scope: req.scope,
    notes: req.notes.map((n) => ({ ...n, links: extractLinks(n.body) })),
    linkExists: (id) => known.has(noteIdKey(id)),
    projectRoot: req.projectRoot,
  });
}

/** workerData of the thread findings-analyser.ts starts (this module is also imported in-thread). */
export const FINDINGS_WORKER = 'memdesk-findings-worker';

// Run as that worker thread: answer each request in turn.
if (workerData === FINDINGS_WORKER)
  parentPort?.on('message', (req: ContentRequest) => {
    let res: ContentResponse;
    try {
      res = { seq: req.seq, content: analyseRequest(req) };
    } catch (err) {
      res = { seq: req.seq, error: (err as Error).message };
    }
    parentPort!.postMessage(res);
  });
