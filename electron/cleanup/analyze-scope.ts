import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Finding } from '../../shared/api/cleanup.js';
import type { Scope } from '../../shared/note.js';
import { analyze } from '../memory/search/analyze.js';
import type { NoteUsage } from '../memory/types.js';
import { findingId, sortIds } from './finding-id.js';
import { extractRelativePaths } from './relative-paths.js';
import { findSameTopicGroups } from './same-topic.js';

/** Body length (in characters, i.e. code points) above which a note is "too long". */
export const TOO_LONG_CHARS = 8000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What the analysis needs of a loaded note (a StoredNote fits). */
export interface AnalysedNote {
  id: string;
  summary: string;
  tags: readonly string[];
  body: string;
  hash: string;
  updatedAt: number;
  /** `[[id]]` targets of the body (the core derives them). */
  links: readonly string[];
}

/** A finding plus the hashes of its notes now (what a dismissal is compared with). */
export type AnalysedFinding = Finding & { hashes: Record<string, string> };

export interface ScopeAnalysisInput {
  scope: Scope;
  notes: readonly AnalysedNote[];
  /** Whether `[[id]]` names a note (project scope first, then user). */
  linkExists: (id: string) => boolean;
  /** Recall stats of this scope on this machine. */
  usage: ReadonlyMap<string, NoteUsage>;
  now: number;
  /** memory.consolidate.unusedDays; 0 turns the unused finding off. */
  unusedDays: number;
  /** The project root, for missing files; only project notes are checked. */
  projectRoot: string | null;
}

/**
 * The part of a scope's analysis that depends only on its notes' text (and which ids exist): what
 * the findings worker computes off the request path, once per store version (findings-worker.ts).
 * Plain data, so it crosses a worker boundary.
 */
export interface ContentAnalysis {
  sameTopic: Array<{ ids: string[]; similarity: number }>;
  brokenLinks: Array<{ id: string; targets: string[] }>;
  /** Relative paths each project note names (checked against the disk at every listing). */
  relativePaths: Array<{ id: string; paths: string[] }>;
  tooLong: Array<{ id: string; chars: number }>;
}

/** What the content analysis reads of a note. */
export type ContentNote = Pick<AnalysedNote, 'id' | 'summary' | 'tags' | 'body' | 'links'>;

export function analyseContent(
  input: Pick<ScopeAnalysisInput, 'scope' | 'linkExists' | 'projectRoot'> & { notes: readonly ContentNote[] },
): ContentAnalysis {
  const { notes } = input;
  const out: ContentAnalysis = {
    sameTopic: findSameTopicGroups(notes, analyze),
    brokenLinks: [],
    relativePaths: [],
    tooLong: [],
  };
  for (const note of notes) {
    const broken = note.links.filter((id) => !input.linkExists(id));
    if (broken.length > 0) out.brokenLinks.push({ id: note.id, targets: broken });
  }
  if (input.scope === 'project' && input.projectRoot) {
    for (const note of notes) {
      const paths = extractRelativePaths(note.body);
      if (paths.length > 0) out.relativePaths.push({ id: note.id, paths });
    }
  }
  for (const note of notes) {
    const chars = codePointLength(note.body);
    if (chars > TOO_LONG_CHARS) out.tooLong.push({ id: note.id, chars });
  }
  return out;
}

/** Every finding of one scope, in a stable order (kind, then id). */
export async function analyseScope(input: ScopeAnalysisInput): Promise<AnalysedFinding[]> {
  return findingsOf(input, analyseContent(input));
}

/**
 * The findings of a scope from its content analysis (however old, as long as it is of these
 * notes), plus what changes without a note changing: files appearing in the project, and time
 * passing / recalls (unused).
 */
export async function findingsOf(
  input: ScopeAnalysisInput,
  content: ContentAnalysis,
): Promise<AnalysedFinding[]> {
  const { scope, notes } = input;
  const byId = new Map(notes.map((n) => [n.id, n]));
  const out: AnalysedFinding[] = [];
  const make = (
    kind: Finding['kind'],
    ids: string[],
    detail: string,
    extra: Pick<Finding, 'targets' | 'similarity'> = {},
  ): AnalysedFinding => {
    const noteIds = sortIds(ids);
    const hashes: Record<string, string> = {};
    for (const id of noteIds) hashes[id] = byId.get(id)?.hash ?? '';
    return { id: findingId(kind, scope, noteIds), kind, scope, noteIds, detail, ...extra, hashes };
  };

  for (const group of content.sameTopic) {
    out.push(
      make(
        'same_topic',
        group.ids,
        `${group.ids.length} notes about the same topic (similarity ${group.similarity.toFixed(2)})`,
        {
          similarity: round2(group.similarity),
        },
      ),
    );
  }

  for (const { id, targets } of content.brokenLinks) {
    out.push(
      make('broken_link', [id], `links to ${targets.map((b) => `[[${b}]]`).join(', ')}, which no note has`, {
        targets,
      }),
    );
  }

  if (scope === 'project' && input.projectRoot) {
    const exists = existenceChecker(input.projectRoot);
    for (const { id, paths } of content.relativePaths) {
      const present = await Promise.all(paths.map(exists));
      const missing = paths.filter((_, i) => !present[i]);
      if (missing.length > 0) {
        out.push(
          make('missing_file', [id], `names ${missing.join(', ')}, not found in the project`, {
            targets: missing,
          }),
        );
      }
    }
  }

  if (input.unusedDays > 0) {
    const cutoff = input.now - input.unusedDays * DAY_MS;
    for (const note of notes) {
      const lastRecalled = input.usage.get(note.id)?.lastRecalledAt ?? null;
      const lastActive = Math.max(note.updatedAt, lastRecalled ?? 0);
      if (lastActive < cutoff) {
        const days = Math.floor((input.now - lastActive) / DAY_MS);
        const what = lastRecalled === null ? 'never recalled on this machine' : 'not recalled';
        out.push(make('unused', [note.id], `${what} and not edited for ${days} days`));
      }
    }
  }

  for (const { id, chars } of content.tooLong) {
    out.push(make('too_long', [id], `body is ${chars} characters (over ${TOO_LONG_CHARS})`));
  }
  return out;
}

/** Memoised "does this relative path exist under root" (a trailing "/" must be a directory). */
function existenceChecker(root: string): (rel: string) => Promise<boolean> {
  const cache = new Map<string, Promise<boolean>>();
  return (rel) => {
    let p = cache.get(rel);
    if (!p) {
      const wantDir = rel.endsWith('/');
      p = fs.stat(path.join(root, rel)).then(
        (st) => (wantDir ? st.isDirectory() : true),
        () => false,
      );
      cache.set(rel, p);
    }
    return p;
  };
}

function codePointLength(text: string): number {
  if (text.length <= TOO_LONG_CHARS) return text.length; // code points never outnumber UTF-16 units
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
