import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, promises as fs, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { Note, Scope } from '../../shared/note.js';
import { fastParseNote } from './fast-parse.js';
import { cachedNote } from './note-store/stored-note.js';
import { analyze } from './search/analyze.js';
import {
  encodeIndexSegment,
  openIndexSegment,
  SegmentDamagedError,
  type IndexSegment,
  type SegmentLists,
} from './search/index-segment.js';
import { analyseDocument, type DocumentAnalysis, type SearchIndex } from './search/search-index.js';
import type { AdoptedFile, LoadedFile, NoteIndexCache, NoteStore, StoredNote } from './types.js';
import { onUnexpectedError, unlessMissing } from './unexpected-error.js';

/**
 * The index cache: per note directory, one file under `$OHARNESS_HOME/memory-cache/` (per machine,
 * never synced) holding every loaded note with its file's mtime, ctime and size, and the inverted
 * index of their search analyses (search/index-segment.ts). Opening a store then costs a readdir +
 * stat per file instead of reading, parsing and analysing every note: files whose mtime, ctime and
 * size match are taken from the cache (ctime: a file only made unreadable by a chmod is read again,
 * and held), the others are read; the search index adopts the persisted postings and patches only
 * the notes that changed (docs/performance.md, "CLI cold start").
 *
 * Opening reads the header, the note rows and the index segment's head (one read); the segment's
 * lists and the bodies come last in the file and are read one by one, by offset, when a term's
 * postings, a note's analysis or a note's body is first asked for (a recall reads a few of each, a
 * `list` none): 10,000 notes' lists and bodies are neither read nor checked at open. A long-running
 * process reads the rest of the lists into memory shortly after (StoreIndexCache, LISTS_INTO_MEMORY_MS)
 * and lets go of the file.
 *
 * Never a wrong answer: the file carries the analyzer's fingerprint (and who wrote it:
 * analyzerIdentity), CRCs of its rows and index, and one CRC per body; it is ignored when the
 * fingerprint (unless this very build wrote it on this runtime) or a section CRC does not match,
 * when it was written for another directory or size limit, or when it cannot be parsed. A body whose CRC
 * does not match when it is read (the file was damaged, or replaced by another process's save) is
 * read from the note's own file instead. A file modified within RACY_MS of the save is not saved
 * (a later change with the same mtime and size could not be told apart).
 */
const FORMAT = 'memdesk-index-cache';
// 5: content hashes cover foreign frontmatter keys (shared/content-hash.ts). 6: rows carry ctime.
// 7: rows in columns (numbers binary, strings as one JSON array per column). 8: the index segment
// in two sections, its head and its lists (search/index-segment.ts), each list with its own CRC.
const VERSION = 8;
const RACY_MS = 2000;
/** The header line is far shorter (a path and a few numbers); a file without a newline in this many bytes is not a cache. */
const HEADER_MAX = 64 * 1024;

/** A loaded note plus its analysis, as the cache holds it. */
export interface CachedFile extends LoadedFile {
  analysis: DocumentAnalysis | null;
  /** The body's UTF-8 bytes when already at hand (copied from the cache read), else taken from the note. */
  bodyBytes?: Buffer | null;
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
        "Ｐｒｉｃｉｎｇ merging merged don't user's the a of parseNoteId 数据库迁移 猫 tjänster sync—backup/restore ill shell id x 2026 IL-6 TNFα",
      ).join(' '),
    )
    .digest('hex')
    .slice(0, 16);
  return fingerprint;
}

/**
 * Who analyses in a process: the bundled CLI's build (its file's content hash) on this runtime (V8,
 * ICU and Unicode versions, CPU). A cache written by the same identity was analysed exactly as
 * this process would: its fingerprint is taken as written, without analysing the probe, whose
 * first run compiles the analyzer's Unicode word pattern (~7 ms of every cold command). Caches
 * from any other writer (the app, the sources, another version or runtime) are checked by the probe.
 */
export function analyzerIdentity(build: string): string {
  const { v8, icu, unicode } = process.versions;
  return [build, v8, icu ?? '-', unicode ?? '-', process.arch].join(' ');
}

/** Whether a cache's analyses are this process's: written by this very build here, or with the probe's fingerprint. */
function sameAnalyzer(header: Header, identity: string | null): boolean {
  if (identity !== null && header.writtenBy === identity) return typeof header.fingerprint === 'string';
  return header.fingerprint === analyzerFingerprint();
}

interface Header {
  format: string;
  version: number;
  fingerprint: string;
  /** analyzerIdentity of the process that wrote it (null: unknown). */
  writtenBy?: string | null;
  scope: Scope;
  dir: string;
  maxNoteBytes: number;
  /** Byte length and CRC-32 of the sections that follow the header line, in this order; `rows`: the note count. */
  notes: { length: number; crc: number; rows: number };
  /** The head of the index segment (search/index-segment.ts) of the notes that have an analysis. */
  index: { length: number; crc: number };
  /** The segment's lists (each also checked by its own CRC in the head when read alone). */
  lists: { length: number; crc: number };
  /** The bodies, one after the other in row order (each with its own CRC in its row). */
  bodies: { length: number };
}

/**
 * The notes section, in columns (one JSON.parse of a few string arrays and one typed array cost a
 * fraction of parsing 10,000 row objects with their numbers as text):
 *   - NUMBER_COLUMNS float64 per row: mtimeMs, ctimeMs, size, createdAt, updatedAt, the body's
 *     length in the bodies section (bytes), its note number in the index segment (-1: never
 *     analysed), the body's CRC-32;
 *   - then UTF-8 JSON: [names, ids, hashes, summaries, types (null: none), tags, [row, extra] pairs].
 */
const NUMBER_COLUMNS = 8;
type TextColumns = [
  string[],
  string[],
  string[],
  string[],
  Array<Note['type'] | null>,
  string[][],
  Array<[number, NonNullable<Note['extra']>]>,
];

/** One note's row as written. */
interface NoteRow {
  name: string;
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  hash: string;
  meta: Omit<Note, 'body'>;
  bodyBytes: number;
  segmentDoc: number;
  bodyCrc: number;
}

function encodeRows(rows: readonly NoteRow[]): Buffer {
  const numbers = new Float64Array(rows.length * NUMBER_COLUMNS);
  const text: TextColumns = [[], [], [], [], [], [], []];
  rows.forEach((r, i) => {
    numbers.set(
      [
        r.mtimeMs,
        r.ctimeMs,
        r.size,
        r.meta.createdAt,
        r.meta.updatedAt,
        r.bodyBytes,
        r.segmentDoc,
        r.bodyCrc,
      ],
      i * NUMBER_COLUMNS,
    );
    text[0].push(r.name);
    text[1].push(r.meta.id);
    text[2].push(r.hash);
    text[3].push(r.meta.summary);
    text[4].push(r.meta.type ?? null);
    text[5].push(r.meta.tags);
    if (r.meta.extra !== undefined) text[6].push([i, r.meta.extra]);
  });
  return Buffer.concat([Buffer.from(numbers.buffer), Buffer.from(JSON.stringify(text), 'utf8')]);
}

/**
 * The notes section as read: its columns, kept as columns (no object per row; the note objects
 * are made from them directly).
 */
interface RowColumns {
  count: number;
  numbers: Float64Array;
  names: string[];
  ids: string[];
  hashes: string[];
  summaries: string[];
  types: Array<Note['type'] | null>;
  tags: string[][];
  extraOf: Map<number, NonNullable<Note['extra']>>;
}

/** The columns of a notes section; null when its parts do not add up. */
function decodeRows(section: Buffer, count: number): RowColumns | null {
  const numberBytes = count * NUMBER_COLUMNS * 8;
  if (!Number.isSafeInteger(count) || count < 0 || section.length < numberBytes) return null;
  // A copy: a Float64Array view needs 8-byte alignment, which the section's place in the file lacks.
  const numbers = new Float64Array(Uint8Array.prototype.slice.call(section, 0, numberBytes).buffer);
  const [names, ids, hashes, summaries, types, tags, extras] = JSON.parse(
    section.toString('utf8', numberBytes),
  ) as TextColumns;
  for (const column of [names, ids, hashes, summaries, types, tags]) if (column.length !== count) return null;
  return { count, numbers, names, ids, hashes, summaries, types, tags, extraOf: new Map(extras) };
}

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
  files: AdoptedFile[];
  segmentDocs: readonly number[];
  /** The analyzer fingerprint the file carries: this process's (by the probe, or written by this very process's identity). */
  fingerprint: string;
  /** A row's body bytes, from one read of the whole bodies section (a save copies them); null when damaged. */
  bodyBytes(row: number): Buffer | null;
  /** Null when the section is damaged: the notes are analysed again. */
  segment(): IndexSegment | null;
  /**
   * The lists read at once into memory (checked whole; a damaged section is kept, each list then
   * checked as served), and the file let go of: a long-running process holds no cache file open
   * (Windows will not replace a file held open). Only a section that cannot be read keeps it.
   */
  listsIntoMemory(): void;
  /** Lets go of the file the lists are read from (kept open until then, or until listsIntoMemory). */
  close(): void;
}

export interface ReadOptions {
  /** Called once when a list read later turns out damaged: the file must not be kept as it is. */
  onDamage?: () => void;
  /** This process's analyzerIdentity, when it has one. */
  analyzer?: string | null;
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

/**
 * `length` bytes of the open file `fd` from `position` (fewer only when the file is shorter),
 * placed `lead` bytes into a buffer of their own (so that a section inside them can start 4-byte
 * aligned in memory: a typed-array view needs it, and a copy of 6 MB to get it costs ~15 ms).
 */
function readAt(fd: number, position: number, length: number, lead = 0): Buffer {
  const buf = lead > 0 ? Buffer.allocUnsafeSlow(lead + length).subarray(lead) : Buffer.allocUnsafe(length);
  const got = readInto(fd, buf, position);
  return got === length ? buf : buf.subarray(0, got);
}

/** Fills `target` from the open file `fd` at `position`; the bytes read (fewer only at the file's end). */
function readInto(fd: number, target: NodeJS.ArrayBufferView, position: number): number {
  let got = 0;
  while (got < target.byteLength) {
    const n = readSync(fd, target, got, target.byteLength - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** Bodies read one by one before the rest are served from one read of the whole section. */
const BODIES_READ_ONE_BY_ONE = 32;

/**
 * The bodies section of a cache file as opened: a body by row, read by offset and checked against
 * its CRC; else (the file was damaged or replaced since it was opened) from the note's own file,
 * which matched the row's mtime and size. One per file, shared by its notes (no closure per note).
 * A recall reads three bodies; a first sync or an export reads them all, and past
 * BODIES_READ_ONE_BY_ONE the section is read once (5,000 bodies were 15,000 open/read/close
 * calls), held weakly so a long-running process does not keep megabytes after such a burst.
 */
class CachedBodies {
  private reads = 0;
  private section: WeakRef<Buffer> | null = null;

  constructor(
    private readonly cacheFile: string,
    /** Where each row's body starts in the cache file, and its length and CRC. */
    private readonly starts: Float64Array,
    private readonly numbers: Float64Array,
    /** Where the bodies section starts in the cache file, and its length. */
    private readonly sectionAt: number,
    private readonly sectionLength: number,
  ) {}

  body(row: number, noteFile: string): string {
    const bytes = this.numbers[row * NUMBER_COLUMNS + 5]!;
    const crc = this.numbers[row * NUMBER_COLUMNS + 7]!;
    if (bytes === 0 && crc === 0) return '';
    const buf = this.bytesOf(row, bytes);
    if (buf && buf.length === bytes && crc32(buf) === crc) return buf.toString('utf8');
    const parsed = fastParseNote(readFileSync(noteFile, 'utf8'));
    if (!parsed.ok) throw new Error(`${noteFile} cannot be read again: ${parsed.reason}`);
    return parsed.note.body;
  }

  /**
   * The row's bytes, read now or from the section read once (the caller checks them against the
   * row's CRC either way); null when the cache file is gone (the note is read instead).
   */
  private bytesOf(row: number, length: number): Buffer | null {
    const bulk = ++this.reads > BODIES_READ_ONE_BY_ONE;
    let section = bulk ? this.section?.deref() : undefined;
    if (!section) {
      try {
        const fd = openSync(this.cacheFile, 'r');
        try {
          if (!bulk) return readAt(fd, this.starts[row]!, length);
          section = readAt(fd, this.sectionAt, this.sectionLength);
          this.section = new WeakRef(section);
        } finally {
          closeSync(fd);
        }
      } catch {
        return null; // the cache file is gone
      }
    }
    const start = this.starts[row]! - this.sectionAt;
    return section.subarray(start, start + length);
  }
}

/** The cached files of a directory, or null when there is no usable cache. Synchronous: one read at open. */
export function readIndexCache(file: string, key: CacheKey, options: ReadOptions): CacheContents | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    unlessMissing(err, 'index cache: read'); // no cache yet: built from the notes
    return null;
  }
  let keepOpen = false;
  try {
    const size = fstatSync(fd).size;
    const head = readAt(fd, 0, Math.min(size, HEADER_MAX));
    const nl = head.indexOf(0x0a);
    if (nl < 0) return null;
    const header = JSON.parse(head.toString('utf8', 0, nl)) as Header;
    if (
      header.format !== FORMAT ||
      header.version !== VERSION ||
      header.scope !== key.scope ||
      header.dir !== path.resolve(key.dir) ||
      header.maxNoteBytes !== key.maxNoteBytes ||
      size !==
        nl + 1 + header.notes.length + header.index.length + header.lists.length + header.bodies.length ||
      !sameAnalyzer(header, options.analyzer ?? null) // last: the probe may have to be analysed
    )
      return null;
    // Rows and the segment's head in one read, the head 4-byte aligned (opened as views); the lists
    // are read from the file as asked for (ListsOnDisk), the bodies too (CachedBodies).
    const listsAt = nl + 1 + header.notes.length + header.index.length;
    const sections = readAt(
      fd,
      nl + 1,
      header.notes.length + header.index.length,
      (4 - (header.notes.length % 4)) % 4,
    );
    const notes = sections.subarray(0, header.notes.length);
    const index = sections.subarray(header.notes.length, header.notes.length + header.index.length);
    if (index.length !== header.index.length || crc32(notes) !== header.notes.crc) return null;
    const bodiesAt = listsAt + header.lists.length;
    const rows = decodeRows(notes, header.notes.rows);
    if (!rows) return null;
    const { count, numbers } = rows;
    // path.join(key.dir, name) for a plain file name, without normalising 10,000 times.
    const dirPrefix = path.join(key.dir, '_').slice(0, -1);
    let at = 0;
    const segmentDocs = new Array<number>(count);
    const bodyStarts = new Float64Array(count);
    for (let row = 0; row < count; row++) {
      segmentDocs[row] = numbers[row * NUMBER_COLUMNS + 6]!;
      bodyStarts[row] = bodiesAt + at;
      at += numbers[row * NUMBER_COLUMNS + 5]!;
    }
    // Bodies are read one by one, when asked for (most never are in a one-shot command).
    const cachedBodies = new CachedBodies(file, bodyStarts, numbers, bodiesAt, header.bodies.length);
    // In the store's own entry shape: it keeps these objects (NoteStore.adopt).
    const files = new Array<AdoptedFile>(count);
    for (let row = 0; row < count; row++) {
      const n = row * NUMBER_COLUMNS;
      const name = rows.names[row]!;
      const mtimeMs = numbers[n]!;
      files[row] = {
        name,
        mtimeMs,
        ctimeMs: numbers[n + 1]!,
        size: numbers[n + 2]!,
        // The same fields in the same order as noteMeta (JSON output keeps the key order).
        note: cachedNote(
          rows.ids[row]!,
          rows.summaries[row]!,
          rows.types[row] ?? undefined,
          rows.tags[row]!,
          numbers[n + 3]!,
          numbers[n + 4]!,
          rows.extraOf.get(row),
          key.scope,
          dirPrefix + name,
          mtimeMs,
          rows.hashes[row]!,
          cachedBodies,
          row,
        ),
        warning: null,
        held: null,
      };
    }
    if (at !== header.bodies.length) return null;
    const listsOnDisk = new ListsOnDisk(file, fd, listsAt, header.lists, options.onDamage);
    let opened: IndexSegment | null | undefined;
    const open = (): IndexSegment | null => {
      if (crc32(index) !== header.index.crc) return null;
      const segment = openIndexSegment(index, listsOnDisk, header.lists.length);
      const analysed = segmentDocs.filter((d) => d >= 0).length;
      if (!segment || segment.docCount !== analysed) return null;
      // Row order and segment order agree (each analysed row took the next number).
      let next = 0;
      for (const d of segmentDocs) if (d >= 0 && d !== next++) return null;
      return segment;
    };
    let bodies: Buffer | null | undefined;
    const bodyBytes = (row: number): Buffer | null => {
      if (bodies === undefined) {
        try {
          bodies = readFileSync(file).subarray(bodiesAt);
        } catch {
          bodies = null;
        }
      }
      const length = numbers[row * NUMBER_COLUMNS + 5]!;
      const crc = numbers[row * NUMBER_COLUMNS + 7]!;
      const start = bodyStarts[row]! - bodiesAt;
      const body = bodies?.subarray(start, start + length);
      return body && body.length === length && crc32(body) === crc ? body : null;
    };
    keepOpen = true;
    return {
      files,
      segmentDocs,
      fingerprint: header.fingerprint,
      bodyBytes,
      segment: () => (opened === undefined ? (opened = open()) : opened),
      listsIntoMemory: () => listsOnDisk.readWhole(),
      close: () => listsOnDisk.close(),
    };
  } catch {
    return null; // unparseable: rebuilt from the notes
  } finally {
    if (!keepOpen) closeSync(fd);
  }
}

/**
 * Lists read one by one (or a quarter of the section's bytes) before the rest are served from one
 * read of the whole section. A read of one list costs a few microseconds; the whole section at
 * 5,000 notes (~6 MB) ~35 ms, most of it the kernel giving the process fresh memory. A recall at
 * 10,000 notes reads ~900 lists (~0.6 MB): its candidates' analyses.
 */
const LISTS_READ_ONE_BY_ONE = 4096;

/**
 * A segment's lists left in the cache file, read by offset from the file as opened (the
 * descriptor stays open: a save by another process replaces the file, not what was opened); each
 * list is checked against its CRC by the segment. Past LISTS_READ_ONE_BY_ONE reads (a save
 * copies every note's analysis), or when a long-running process asks (readWhole), the section is
 * read once and the file let go of; when the section fails its CRC (a list somewhere is damaged)
 * each list is still checked as it is served, so the undamaged ones still serve.
 */
class ListsOnDisk implements SegmentLists {
  private reads = 0;
  private bytesRead = 0;
  /** The whole section, once read (the file is let go of then). */
  private section: Uint32Array | null = null;
  /** The section read matched its CRC: lists are served without a check each. */
  private sectionChecked = false;
  /** The whole section could not be read: lists go on being read one by one. */
  private unreadable = false;
  private warned = false;

  constructor(
    private readonly file: string,
    private fd: number,
    private readonly at: number,
    private readonly whole: { length: number; crc: number },
    private readonly onDamage: (() => void) | undefined,
  ) {}

  get checked(): boolean {
    return this.sectionChecked;
  }

  read(at: number, words: number): Uint32Array | null {
    if (this.section) return at + words <= this.section.length ? this.section.subarray(at, at + words) : null;
    if (this.fd < 0) return null; // closed: the index analyses these notes again
    try {
      this.bytesRead += 4 * words;
      const oneByOne = ++this.reads <= LISTS_READ_ONE_BY_ONE && this.bytesRead <= this.whole.length / 4;
      if (oneByOne || this.unreadable) return this.readWords(this.at + 4 * at, words);
      this.readWhole();
      return this.read(at, words);
    } catch {
      return null; // read error: reported as damage by the segment
    }
  }

  /**
   * Reads the whole section into memory and lets go of the file. When it does not match its CRC (a
   * list somewhere is damaged) it is kept all the same, each list then checked against its own CRC
   * as it is served, so the undamaged ones still serve; when it cannot be read, the lists go on
   * being read one by one from the file.
   */
  readWhole(): void {
    if (this.section || this.fd < 0 || this.unreadable) return;
    let all: Uint32Array | null = null;
    try {
      all = this.readWords(this.at, this.whole.length / 4);
    } catch {
      // reported below
    }
    if (!all) {
      this.unreadable = true;
      this.damaged('the lists section cannot be read'); // the file is rewritten at save
      return;
    }
    this.section = all;
    this.sectionChecked = crc32(all) === this.whole.crc;
    if (!this.sectionChecked) this.damaged('the lists section does not match its checksum');
    this.close();
  }

  damaged(what: string): SegmentDamagedError {
    if (!this.warned) {
      this.warned = true;
      this.onDamage?.();
    }
    return new SegmentDamagedError(
      `the index cache ${this.file} is damaged (${what}); its notes are indexed again`,
    );
  }

  close(): void {
    const fd = this.fd;
    this.fd = -1;
    try {
      if (fd >= 0) closeSync(fd);
    } catch (err) {
      onUnexpectedError(err, 'index cache: close'); // let go of either way (called from a timer too)
    }
  }

  private readWords(position: number, words: number): Uint32Array | null {
    const out = new Uint32Array(words);
    return readInto(this.fd, out, position) === out.byteLength ? out : null;
  }
}

/** Writes the cache (temp file + rename: readers see the old or the new file; the CRCs catch the rest). */
export async function writeIndexCache(
  file: string,
  key: CacheKey,
  files: readonly CachedFile[],
  /** Who writes it (analyzerIdentity, null: unknown), and the analyzer's fingerprint when already known (no probe analysed). */
  writer: { identity: string | null; fingerprint?: string } = { identity: null },
): Promise<void> {
  const newest = Date.now() - RACY_MS;
  const noteRows: NoteRow[] = [];
  const bodyParts: Buffer[] = [];
  const analyses: DocumentAnalysis[] = [];
  for (const f of files) {
    if (!(f.mtimeMs < newest)) continue;
    const body = f.bodyBytes ?? Buffer.from(f.note.body, 'utf8');
    bodyParts.push(body);
    const segmentDoc = f.analysis ? analyses.push(f.analysis) - 1 : -1;
    noteRows.push({
      name: f.name,
      mtimeMs: f.mtimeMs,
      ctimeMs: f.ctimeMs,
      size: f.size,
      hash: f.note.hash,
      meta: noteMeta(f.note),
      bodyBytes: body.length,
      segmentDoc,
      bodyCrc: crc32(body),
    });
  }
  const notes = encodeRows(noteRows);
  const bodies = Buffer.concat(bodyParts);
  const index = encodeIndexSegment(analyses);
  const header: Header = {
    format: FORMAT,
    version: VERSION,
    fingerprint: writer.fingerprint ?? analyzerFingerprint(),
    writtenBy: writer.identity,
    scope: key.scope,
    dir: path.resolve(key.dir),
    maxNoteBytes: key.maxNoteBytes,
    notes: { length: notes.length, crc: crc32(notes), rows: noteRows.length },
    index: { length: index.head.length, crc: crc32(index.head) },
    lists: { length: index.lists.length, crc: crc32(index.lists) },
    bodies: { length: bodies.length },
  };
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeFile(
      tmp,
      Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), notes, index.head, index.lists, bodies]),
    );
    await renameOver(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Windows refuses to rename over a file another process holds open, and a process holds its cache
 * file open while its index's lists are read from the file as opened (a one-shot process for its
 * short life, a long-running one for LISTS_INTO_MEMORY_MS): there, a refused rename is tried again
 * a few times before the save gives up (a failed save only costs the next open its speed).
 */
async function renameOver(tmp: string, file: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fs.rename(tmp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const held = code === 'EPERM' || code === 'EACCES' || code === 'EBUSY';
      if (process.platform !== 'win32' || !held || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25 << attempt));
    }
  }
}

/**
 * How long after the open a long-running process reads its cache's lists into memory: past its
 * first answers (which read a few hundred lists each from the file), soon enough that a cache file
 * is not held open for long (another process's save replaces it).
 */
export const LISTS_INTO_MEMORY_MS = 2_000;

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
  /**
   * What the cache file holds: each file name's row, and by row its note and whether its analysis
   * is in the file (columns: no object per note).
   */
  private read: { rowOf: Map<string, number>; notes: StoredNote[]; inFile: boolean[] } | null = null;
  /** The file as read at open (null after a save: the analyses are then in `analyses`). */
  private contents: CacheContents | null = null;
  /** The file as opened, until close() (its lists may still be read after a save). */
  private opened: CacheContents | null = null;
  /** A list of the file was found damaged: the next save rewrites it whatever else changed. */
  private damaged = false;

  /** A long-running process's read of the lists into memory, due soon after the open. */
  private listsTimer: NodeJS.Timeout | null = null;
  /**
   * The segment's lists are read from the file as asked for either way (a first answer needs a
   * few hundred of them, not the megabytes of all); a long-running process then reads the rest
   * into memory LISTS_INTO_MEMORY_MS after the open and lets go of the file.
   */
  private readonly longRunning: boolean;
  /** This process's analyzerIdentity (null: unknown): a cache it wrote itself is taken without the probe. */
  private readonly analyzer: string | null;
  /** The analyzer's fingerprint, once known (read with the file, or analysed for a save): saves reuse it. */
  private fingerprint: string | undefined;

  constructor(
    home: string,
    private readonly store: NoteStore,
    maxNoteBytes: number,
    options: { longRunning?: boolean; analyzerBuild?: string | null } = {},
  ) {
    this.key = { scope: store.scope, dir: store.dir, maxNoteBytes };
    this.file = indexCacheFile(home, store.scope, store.dir);
    this.longRunning = options.longRunning ?? false;
    this.analyzer = options.analyzerBuild ? analyzerIdentity(options.analyzerBuild) : null;
  }

  /** Call before the store's first load. */
  prime(): void {
    const contents = readIndexCache(this.file, this.key, {
      onDamage: () => (this.damaged = true),
      analyzer: this.analyzer,
    });
    if (!contents) return;
    this.fingerprint = contents.fingerprint;
    this.contents = contents;
    this.opened = contents;
    if (this.longRunning) {
      this.listsTimer = setTimeout(() => this.listsIntoMemory(), LISTS_INTO_MEMORY_MS);
      this.listsTimer.unref();
    }
    const { files, segmentDocs } = contents;
    const rowOf = new Map<string, number>();
    const notes = new Array<StoredNote>(files.length);
    const inFile = new Array<boolean>(files.length);
    for (let row = 0; row < files.length; row++) {
      rowOf.set(files[row]!.name, row);
      notes[row] = files[row]!.note;
      inFile[row] = segmentDocs[row]! >= 0;
    }
    this.read = { rowOf, notes, inFile };
    this.store.adopt(files);
  }

  /** The row the cache file holds for `name` when `note` is still the object made from it, else -1. */
  private rowOf(name: string, note: StoredNote): number {
    const row = this.read?.rowOf.get(name);
    return row !== undefined && this.read!.notes[row] === note ? row : -1;
  }

  /** A row's analysis as the file holds it (null: not analysed, or the index section is damaged). */
  private fileAnalysis(row: number): DocumentAnalysis | null {
    const doc = this.contents?.segmentDocs[row] ?? -1;
    if (doc < 0) return null;
    try {
      return this.contents?.segment()?.analysis(doc) ?? null;
    } catch (err) {
      if (err instanceof SegmentDamagedError) return null; // analysed from the note instead
      throw err;
    }
  }

  /** The note's analysis: from the cache when the note came from it, else computed (and kept). */
  analysisOf(note: StoredNote): DocumentAnalysis {
    let a = this.analyses.get(note);
    if (a) return a;
    const row = this.rowOf(path.basename(note.path), note);
    if (row >= 0 && this.read!.inFile[row]) a = this.fileAnalysis(row) ?? undefined;
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
    // Counted without listing the files (most closes of a one-shot command find nothing to save).
    let count = 0;
    let stale = this.read ? this.read.notes.length : 0;
    this.store.forEachLoadedFile((name, note) => {
      count++;
      const row = this.rowOf(name, note);
      if (row >= 0) {
        stale--;
        // Analysed now but not in the file: saving spares the next process the analysis.
        if (!this.read!.inFile[row] && this.analyses.has(note)) stale++;
      } else stale++;
    });
    const worth = this.read === null || this.damaged ? count > 0 : stale >= Math.max(1, count / 100);
    if (!worth) return;
    const files = this.store.loadedFiles();
    // Notes analysed neither now nor in the file are saved without analysis.
    const rows = files.map((f) => {
      const row = this.rowOf(f.name, f.note);
      const analysis =
        this.analyses.get(f.note) ?? (row >= 0 && this.read!.inFile[row] ? this.fileAnalysis(row) : null);
      if (analysis) this.analyses.set(f.note, analysis);
      // Bodies never read are copied from the file as read (one read) rather than one by one.
      const bodyBytes = row >= 0 ? this.contents?.bodyBytes(row) : null;
      return { ...f, analysis, bodyBytes };
    });
    // Every list this save needs is read: the file as opened is let go before it is replaced
    // (Windows will not rename over a file this process holds open). A long-running process's
    // index goes on reading the lists: they are read into memory first.
    if (this.longRunning) this.listsIntoMemory();
    this.close();
    this.fingerprint ??= analyzerFingerprint();
    await writeIndexCache(this.file, this.key, rows, {
      identity: this.analyzer,
      fingerprint: this.fingerprint,
    });
    this.damaged = false;
    this.contents = null;
    this.read = {
      rowOf: new Map(rows.map((r, row) => [r.name, row])),
      notes: rows.map((r) => r.note),
      inFile: rows.map((r) => r.analysis !== null),
    };
  }

  /**
   * Reads the lists of the file as opened into memory and lets go of it (a long-running process,
   * LISTS_INTO_MEMORY_MS after the open or before a save): CacheContents.listsIntoMemory.
   */
  listsIntoMemory(): void {
    this.cancelListsTimer();
    this.opened?.listsIntoMemory();
  }

  /** Lets go of the cache file as opened (after this, lists not yet read are analysed from the notes). */
  close(): void {
    this.cancelListsTimer();
    this.opened?.close();
    this.opened = null;
  }

  private cancelListsTimer(): void {
    if (this.listsTimer) clearTimeout(this.listsTimer);
    this.listsTimer = null;
  }
}
