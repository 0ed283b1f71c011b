import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { Note, Scope } from '../../shared/note.js';
import { storedNote } from './note-store/stored-note.js';
import { analyze } from './search/analyze.js';
import { encodeIndexSegment, openIndexSegment, type IndexSegment } from './search/index-segment.js';
import { analyseDocument, type DocumentAnalysis, type SearchIndex } from './search/search-index.js';
import type { LoadedFile, NoteIndexCache, NoteStore, StoredNote } from './types.js';

/**
 * The index cache: per note directory, one file under `$OHARNESS_HOME/memory-cache/` (per machine,
 * never synced) holding every loaded note with its file's mtime and size, and the inverted index of
 * their search analyses (search/index-segment.ts). Opening a store then costs a readdir + stat per
 * file instead of reading, parsing and analysing every note: files whose mtime and size match are
 * taken from the cache, the others are read; the search index adopts the persisted postings and
 * patches only the notes that changed (docs/performance.md, "CLI cold start").
 *
 * Never a wrong answer: the file carries a CRC of its body and the analyzer's fingerprint, and is
 * ignored when either does not match, when it was written for another directory or size limit, or
 * when it cannot be parsed; a file modified within RACY_MS of the save is not saved (a later change
 * with the same mtime and size could not be told apart).
 */
const FORMAT = 'memdesk-index-cache';
// 4: content hashes cover foreign frontmatter keys (shared/content-hash.ts).
const VERSION = 4;
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
  /** The index segment (search/index-segment.ts) of the notes that have an analysis. */
  index: { length: number; crc: number };
}

/**
 * [name, mtimeMs, size, hash, the note without its body, the body's length in the bodies section
 * (bytes), its note number in the index segment or -1 when it was never analysed]
 */
type NoteRow = [string, number, number, string, Omit<Note, 'body'>, number, number];

export interface CacheKey {
  scope: Scope;
  dir: string;
  maxNoteBytes: number;
}

/**
 * A cache file read: its notes, and the index segment of their analyses, opened on first use (a
 * `list` never needs it). `segmentDocs[row]`: the row's note number in the segment, -1 when the
 * note was never analysed.
 */
export interface CacheContents {
  files: LoadedFile[];
  segmentDocs: readonly number[];
  /** Null when the section is damaged: the notes are analysed again. */
  segment(): IndexSegment | null;
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
    const indexAt = bodiesAt + header.bodies.length;
    const notes = buf.subarray(notesAt, bodiesAt);
    const bodies = buf.subarray(bodiesAt, indexAt);
    const index = buf.subarray(indexAt);
    if (
      header.format !== FORMAT ||
      header.version !== VERSION ||
      header.fingerprint !== analyzerFingerprint() ||
      header.scope !== key.scope ||
      header.dir !== path.resolve(key.dir) ||
      header.maxNoteBytes !== key.maxNoteBytes ||
      notes.length !== header.notes.length ||
      bodies.length !== header.bodies.length ||
      index.length !== header.index.length ||
      crc32(notes) !== header.notes.crc ||
      crc32(bodies) !== header.bodies.crc
    )
      return null;
    const rows = JSON.parse(notes.toString('utf8')) as NoteRow[];
    let at = 0;
    const segmentDocs = rows.map((r) => r[6]);
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
    let opened: IndexSegment | null | undefined;
    const open = (): IndexSegment | null => {
      if (crc32(index) !== header.index.crc) return null;
      const segment = openIndexSegment(index);
      const analysed = segmentDocs.filter((d) => d >= 0).length;
      if (!segment || segment.docCount !== analysed) return null;
      // Row order and segment order agree (each analysed row took the next number).
      let next = 0;
      for (const d of segmentDocs) if (d >= 0 && d !== next++) return null;
      return segment;
    };
    return { files, segmentDocs, segment: () => (opened === undefined ? (opened = open()) : opened) };
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
  const newest = Date.now() - RACY_MS;
  const noteRows: NoteRow[] = [];
  const bodyParts: Buffer[] = [];
  const analyses: DocumentAnalysis[] = [];
  for (const f of files) {
    if (!(f.mtimeMs < newest)) continue;
    const body = Buffer.from(f.note.body, 'utf8');
    bodyParts.push(body);
    const segmentDoc = f.analysis ? analyses.push(f.analysis) - 1 : -1;
    noteRows.push([f.name, f.mtimeMs, f.size, f.note.hash, noteMeta(f.note), body.length, segmentDoc]);
  }
  const notes = Buffer.from(JSON.stringify(noteRows), 'utf8');
  const bodies = Buffer.concat(bodyParts);
  const index = encodeIndexSegment(analyses);
  const header: Header = {
    format: FORMAT,
    version: VERSION,
    fingerprint: analyzerFingerprint(),
    scope: key.scope,
    dir: path.resolve(key.dir),
    maxNoteBytes: key.maxNoteBytes,
    notes: { length: notes.length, crc: crc32(notes) },
    bodies: { length: bodies.length, crc: crc32(bodies) },
    index: { length: index.length, crc: crc32(index) },
  };
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeFile(
      tmp,
      Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), notes, bodies, index]),
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
  /** What the cache file holds (by file name): each note, its row, and whether its analysis is in the file. */
  private read: Map<string, { note: StoredNote; row: number; inFile: boolean }> | null = null;
  /** The file as read at open (null after a save: the analyses are then in `analyses`). */
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
    const contents = readIndexCache(this.file, this.key);
    if (!contents) return;
    this.contents = contents;
    this.read = new Map(
      contents.files.map(
        (f, row) => [f.name, { note: f.note, row, inFile: contents.segmentDocs[row]! >= 0 }] as const,
      ),
    );
    this.store.adopt(contents.files);
  }

  /** A row's analysis as the file holds it (null: not analysed, or the index section is damaged). */
  private fileAnalysis(row: number): DocumentAnalysis | null {
    const doc = this.contents?.segmentDocs[row] ?? -1;
    return doc >= 0 ? (this.contents?.segment()?.analysis(doc) ?? null) : null;
  }

  /** The note's analysis: from the cache when the note came from it, else computed (and kept). */
  analysisOf(note: StoredNote): DocumentAnalysis {
    let a = this.analyses.get(note);
    if (a) return a;
    const cached = this.read?.get(path.basename(note.path));
    if (cached?.note === note && cached.inFile) a = this.fileAnalysis(cached.row) ?? undefined;
    a ??= analyseDocument(note);
    this.analyses.set(note, a);
    return a;
  }

  adoptInto(index: SearchIndex): Set<StoredNote> {
    const held = new Set<StoredNote>();
    const contents = this.contents;
    const segment = contents?.segment();
    if (!contents || !segment) return held;
    const docs: StoredNote[] = [];
    const changed: StoredNote[] = [];
    contents.files.forEach((f, row) => {
      if (contents.segmentDocs[row]! < 0) return;
      docs.push(f.note);
      // Still the store's note for that file (not re-read, removed, or held back since)?
      if (this.store.get(f.note.id) === f.note) held.add(f.note);
      else changed.push(f.note);
    });
    index.adoptSegment(segment, docs);
    for (const n of changed) index.remove(n.scope, n.id);
    return held;
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
        if (!cached.inFile && this.analyses.has(f.note)) stale++;
      } else stale++;
    }
    const worth = this.read === null ? files.length > 0 : stale >= Math.max(1, files.length / 100);
    if (!worth) return;
    // Notes analysed neither now nor in the file are saved without analysis.
    const rows = files.map((f) => {
      const cached = this.read?.get(f.name);
      const analysis =
        this.analyses.get(f.note) ??
        (cached?.note === f.note && cached.inFile ? this.fileAnalysis(cached.row) : null);
      if (analysis) this.analyses.set(f.note, analysis);
      return { ...f, analysis };
    });
    await writeIndexCache(this.file, this.key, rows);
    this.contents = null;
    this.read = new Map(rows.map((r, row) => [r.name, { note: r.note, row, inFile: r.analysis !== null }]));
  }
}
