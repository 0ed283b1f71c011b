import type { Note, Scope } from '../../../shared/note.js';
import { fastContentHash } from '../hash.js';
import { extractLinks } from '../links.js';
import type { StoredNote } from '../types.js';

/**
 * A StoredNote whose `hash` and `links` are computed on first use (then kept): loading 10,000
 * notes should not pay for hashes nobody asked for. Both are enumerable, so spreading or
 * serialising the note includes them like plain fields. With `bodyOf`, the body too is read on
 * first use (the index cache: a `list` or a `recall` reads a few bodies, not 10,000).
 */
export function storedNote(
  note: Note,
  scope: Scope,
  file: string,
  mtimeMs: number,
  bodyOf?: () => string,
): StoredNote {
  let hash: string | undefined;
  let links: string[] | undefined;
  let whole = bodyOf === undefined;
  const full = (): Note => {
    if (!whole) {
      note.body = bodyOf!();
      whole = true;
    }
    return note;
  };
  // A fixed-shape literal (no spread) keeps V8 on its fast path when loading thousands of notes;
  // `type` and `extra` are own properties even when undefined (JSON output drops them).
  const stored: StoredNote = {
    id: note.id,
    summary: note.summary,
    type: note.type,
    tags: note.tags,
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
    body: note.body,
    extra: note.extra,
    scope,
    path: file,
    mtimeMs,
    get hash(): string {
      return (hash ??= fastContentHash(full()));
    },
    set hash(value: string) {
      hash = value;
    },
    get links(): string[] {
      return (links ??= extractLinks(full().body));
    },
    set links(value: string[]) {
      links = value;
    },
  };
  if (!whole) Object.defineProperty(stored, 'body', { enumerable: true, get: () => full().body });
  return stored;
}

/** Where cached notes' bodies are read from (the index cache file as opened): one per file, shared. */
export interface CachedBodySource {
  body(row: number, noteFile: string): string;
}

/**
 * A note from the index cache (../index-cache.ts): its hash came with it, its body is read when
 * first asked for, its links derived then. `body` and `links` are own enumerable accessors like
 * storedNote's (spread, rest and JSON see them as fields), but their functions are shared by every
 * cached note, so 10,000 of them share one object shape; a getter literal per note gives each its
 * own closures and shape, which made opening a 10,000-note cache several times slower
 * (docs/performance.md, "cold path"). The body is found by the note's row in the shared source
 * (no closure per note).
 */
class CachedNote {
  declare id: string;
  declare summary: string;
  declare type: Note['type'];
  declare tags: string[];
  declare createdAt: number;
  declare updatedAt: number;
  declare body: string;
  declare extra: Note['extra'];
  declare scope: Scope;
  declare path: string;
  declare mtimeMs: number;
  declare hash: string;
  declare links: string[];
  /** Null once the body was read or set. */
  #source: CachedBodySource | null;
  #row: number;
  #body = '';
  #links: string[] | undefined;

  static readonly #bodyAccessor: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: CachedNote): string {
      if (this.#source) {
        this.#body = this.#source.body(this.#row, this.path);
        this.#source = null;
      }
      return this.#body;
    },
    set(this: CachedNote, value: string) {
      this.#body = value;
      this.#source = null;
    },
  };

  static readonly #linksAccessor: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: CachedNote): string[] {
      return (this.#links ??= extractLinks(this.body));
    },
    set(this: CachedNote, value: string[]) {
      this.#links = value;
    },
  };

  constructor(
    id: string,
    summary: string,
    type: Note['type'],
    tags: string[],
    createdAt: number,
    updatedAt: number,
    extra: Note['extra'],
    scope: Scope,
    file: string,
    mtimeMs: number,
    hash: string,
    source: CachedBodySource,
    row: number,
  ) {
    this.#source = source;
    this.#row = row;
    // The same property order as storedNote's (JSON output keeps its key order).
    this.id = id;
    this.summary = summary;
    this.type = type;
    this.tags = tags;
    this.createdAt = createdAt;
    this.updatedAt = updatedAt;
    Object.defineProperty(this, 'body', CachedNote.#bodyAccessor);
    this.extra = extra;
    this.scope = scope;
    this.path = file;
    this.mtimeMs = mtimeMs;
    this.hash = hash;
    Object.defineProperty(this, 'links', CachedNote.#linksAccessor);
  }
}

/** A StoredNote for a note the index cache holds: metadata and hash given, the body read from `source` by its row when first needed. */
export function cachedNote(...args: ConstructorParameters<typeof CachedNote>): StoredNote {
  return new CachedNote(...args);
}
