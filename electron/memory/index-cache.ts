import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { Note, Scope } from '../../shared/note.js';
import { storedNote } from './note-store.js';
import { analyze } from './search/analyze.js';
import { analyseDocument, type DocumentAnalysis } from './search/search-index.js';
import type { LoadedFile, NoteIndexCache, NoteStore, StoredNote } from './types.js';

/**
 * The index cache: per note directory, one file under `$OHARNESS_HOME/memory-cache/` (per machine,
 * never synced) holding every loaded note with its file's mtime and size and its search analysis.
 * Opening a store then costs a readdir + stat per file instead of reading, parsing and analysing
 * every note: files whose mtime and size match are taken from the cache, the others are read
 * (docs/performance.md, "CLI cold start").
 *
 * Never a wrong answer: the file carries a CRC of its body and the analyzer's fingerprint, and is
 * ignored when either does not match, when it was written for another directory or size limit, or
 * when it cannot be parsed; a file modified within RACY_MS of the save is not saved (a later change
 * with the same mtime and size could not be told apart).
 */
const FORMAT = 'memdesk-index-cache';
const VERSION = 2;
const RACY_MS = 2000;

/** A loaded note plus its analysis, as the cache holds it. */
export interface CachedFile extends LoadedFile {
  analysis: DocumentAnalysis | null;
}

export function indexCacheDir(home: string): string {
  return path.join(home, 'memory-cache');
}

export function indexCacheFile(home: string, scope: Scope, dir: string): string {
  const key = createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 24);
  return path.join(indexCacheDir(home), `${scope}-${key}.cache`);
}

/**
 * What the analyzer makes of a probe covering each of its rules: a cache written by a build whose
 * analysis differs (other stemming, stop words, CJK rules) is ignored rather than trusted.
 */
let fingerprint: string | undefined;
export function analyzerFingerprint(): string {
  fingerprint ??= createHash('sha256')
    .update(
      analyze(
        "Ｐｒｉｃｉｎｇ merging merged don't user's the a of parseNoteId 数据库迁移 猫 tjänster sync—backup/restore ill shell id x 2026",
      ).join(' '),
    )
    .digest('hex')
    .slice(0, 16);
  return fingerprint;
}

interface Header {
  format: string;
  version: number;
  fingerprint: string;
  scope: Scope;
  dir: string;
  maxNoteBytes: number;
  /** Byte length and CRC-32 of each of the three sections that follow the header line. */
  notes: { length: number; crc: number };
  bodies: { length: number; crc: number };
  analyses: { length: number; crc: number };
}

/** [name, mtimeMs, size, hash, the note without its body, the body's length in the bodies section (bytes)] */
type NoteRow = [string, number, number, string, Omit<Note, 'body'>, number];
/** Per note (same order): [term indexes, tfs, lengths], or null when the note was never analysed. */
type AnalysisRow = [number[], number[], [number, number, number]] | null;

interface AnalysesSection {
  terms: string[];
  rows: AnalysisRow[];
}

export interface CacheKey {
  scope: Scope;
  dir: string;
  maxNoteBytes: number;
}

/**
 * A cache file read: its notes, and their analyses decoded on first use (a `list` never needs
 * them, so it parses only the notes section). Null analyses: the note was never analysed.
 */
export interface CacheContents {
  files: LoadedFile[];
  analyses(): Array<DocumentAnalysis | null> | null;
}

/** The fields of a note the cache keeps beside its body, in a fixed shape. */
const noteMeta = (n: Omit<Note, 'body'>): Omit<Note, 'body'> => ({
  id: n.id,
  summary: n.summary,
  type: n.type,
  tags: n.tags,
  createdAt: n.createdAt,
  updatedAt: n.updatedAt,
  extra: n.extra,
});

/** The cached files of a directory, or null when there is no usable cache. Synchronous: one read at open. */
export function readIndexCache(file: string, key: CacheKey): CacheContents | null {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return null;
  }
  try {
    const nl = buf.indexOf(0x0a);
    if (nl < 0) return null;
    const header = JSON.parse(buf.toString('utf8', 0, nl)) as Header;
    const notesAt = nl + 1;
    const bodiesAt = notesAt + header.notes.length;
    const analysesAt = bodiesAt + header.bodies.length;
    const notes = buf.subarray(notesAt, bodiesAt);
    const bodies = buf.subarray(bodiesAt, analysesAt);
    const analyses = buf.subarray(analysesAt);
    if (
      header.format !== FORMAT ||
      header.version !== VERSION ||
      header.fingerprint !== analyzerFingerprint() ||
      header.scope !== key.scope ||
      header.dir !== path.resolve(key.dir) ||
      header.maxNoteBytes !== key.maxNoteBytes ||
      notes.length !== header.notes.length ||
      bodies.length !== header.bodies.length ||
      analyses.length !== header.analyses.length ||
      crc32(notes) !== header.notes.crc ||
      crc32(bodies) !== header.bodies.crc
    )
      return null;
    const rows = JSON.parse(notes.toString('utf8')) as NoteRow[];
    let at = 0;
    const files = rows.map(([name, mtimeMs, size, hash, n, bodyBytes]): LoadedFile => {
      const start = at;
      at += bodyBytes;
      // Bodies are decoded one by one, when read (most never are in a one-shot command).
      const bodyOf = () => bodies.toString('utf8', start, start + bodyBytes);
      const stored = storedNote(
        { ...noteMeta(n), body: '' },
        key.scope,
        path.join(key.dir, name),
        mtimeMs,
        bodyOf,
      );
      stored.hash = hash;
      return { name, mtimeMs, size, note: stored };
    });
    if (at !== bodies.length) return null;
    let decoded: Array<DocumentAnalysis | null> | null | undefined;
    const decode = (): Array<DocumentAnalysis | null> | null => {
      if (crc32(analyses) !== header.analyses.crc) return null;
      const { terms, rows: a } = JSON.parse(analyses.toString('utf8')) as AnalysesSection;
      if (a.length !== files.length) return null;
      return a.map((r) => (r ? { terms: r[0].map((t) => terms[t]!), tfs: r[1], lengths: r[2] } : null));
    };
    return {
      files,
      analyses: () => {
        if (decoded === undefined) {
          try {
            decoded = decode();
          } catch {
            decoded = null; // unparseable: the notes are analysed again
          }
        }
        return decoded;
      },
    };
  } catch {
    return null; // unparseable: rebuilt from the notes
  }
}

/** Writes the cache (temp file + rename: readers see the old or the new file; the CRCs catch the rest). */
export async function writeIndexCache(
  file: string,
  key: CacheKey,
  files: readonly CachedFile[],
): Promise<void> {
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const newest = Date.now() - RACY_MS;
  const noteRows: NoteRow[] = [];
  const bodyParts: Buffer[] = [];
  const analysisRows: AnalysisRow[] = [];
  for (const f of files) {
    if (!(f.mtimeMs < newest)) continue;
    const body = Buffer.from(f.note.body, 'utf8');
    bodyParts.push(body);
    noteRows.push([f.name, f.mtimeMs, f.size, f.note.hash, noteMeta(f.note), body.length]);
    if (!f.analysis) {
      analysisRows.push(null);
      continue;
    }
    const ids = f.analysis.terms.map((t) => {
      let id = termIds.get(t);
      if (id === undefined) termIds.set(t, (id = terms.push(t) - 1));
      return id;
    });
    analysisRows.push([ids, f.analysis.tfs, [...f.analysis.lengths]]);
  }
  const notes = Buffer.from(JSON.stringify(noteRows), 'utf8');
  const bodies = Buffer.concat(bodyParts);
  const analyses = Buffer.from(
    JSON.stringify({ terms, rows: analysisRows } satisfies AnalysesSection),
    'utf8',
  );
  const header: Header = {
    format: FORMAT,
    version: VERSION,
    fingerprint: analyzerFingerprint(),
    scope: key.scope,
    dir: path.resolve(key.dir),
    maxNoteBytes: key.maxNoteBytes,
    notes: { length: notes.length, crc: crc32(notes) },
    bodies: { length: bodies.length, crc: crc32(bodies) },
    analyses: { length: analyses.length, crc: crc32(analyses) },
  };
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeFile(
      tmp,
      Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), notes, bodies, analyses]),
    );
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/**
 * One store's cache: primes the store before its first load, hands out the analyses of the notes
 * it supplied, and saves the store's notes (with the analyses the index computed) when enough
 * changed since it was read.
 */
export class StoreIndexCache implements NoteIndexCache {
  private readonly file: string;
  private readonly key: CacheKey;
  /** Analyses by note object: a note re-read from disk is a new object, so a stale analysis is never used. */
  private readonly analyses = new WeakMap<StoredNote, DocumentAnalysis>();
  /** What the cache file held (by file name), with each note's position for its analysis. */
  private read: Map<string, { note: StoredNote; row: number; analysed: boolean }> | null = null;
  private contents: CacheContents | null = null;

  constructor(
    home: string,
    private readonly store: NoteStore,
    maxNoteBytes: number,
  ) {
    this.key = { scope: store.scope, dir: store.dir, maxNoteBytes };
    this.file = indexCacheFile(home, store.scope, store.dir);
  }

  /** Call before the store's first load. */
  prime(): void {
    this.contents = readIndexCache(this.file, this.key);
    if (!this.contents) return;
    this.read = new Map(
      this.contents.files.map((f, row) => [f.name, { note: f.note, row, analysed: false }] as const),
    );
    this.store.adopt(this.contents.files);
  }

  /** The note's analysis: from the cache when the note came from it, else computed (and kept). */
  analysisOf(note: StoredNote): DocumentAnalysis {
    let a = this.analyses.get(note);
    if (a) return a;
    const cached = this.read?.get(path.basename(note.path));
    if (cached?.note === note) {
      a = this.contents?.analyses()?.[cached.row] ?? undefined;
      if (a) cached.analysed = true;
    }
    a ??= analyseDocument(note);
    this.analyses.set(note, a);
    return a;
  }

  /** Saves when the cache is missing or at least 1% of its entries are stale (a few re-reads cost less than a rewrite). */
  async save(): Promise<void> {
    const files = this.store.loadedFiles();
    let stale = this.read ? this.read.size : files.length;
    for (const f of files) {
      const cached = this.read?.get(f.name);
      if (cached?.note === f.note) {
        stale--;
        // Analysed now but not in the file: saving spares the next process the analysis.
        if (!cached.analysed && this.analyses.has(f.note) && !this.contents?.analyses()?.[cached.row])
          stale++;
      } else stale++;
    }
    const worth = this.read === null ? files.length > 0 : stale >= Math.max(1, files.length / 100);
    if (!worth) return;
    // Notes analysed neither now nor in the file are saved without analysis.
    const rows = files.map((f) => {
      let analysis = this.analyses.get(f.note) ?? null;
      const cached = this.read?.get(f.name);
      if (!analysis && cached?.note === f.note) analysis = this.contents?.analyses()?.[cached.row] ?? null;
      return { ...f, analysis };
    });
    await writeIndexCache(this.file, this.key, rows);
    this.contents = { files: rows, analyses: () => rows.map((r) => r.analysis) };
    this.read = new Map(rows.map((r, row) => [r.name, { note: r.note, row, analysed: r.analysis !== null }]));
  }
}
