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

/**
 * A note from the index cache (../index-cache.ts): its hash came with it, its body is read when
 * first asked for, its links derived then. `body` and `links` are own enumerable accessors like
 * storedNote's (spread, rest and JSON see them as fields), but their functions are shared by every
 * cached note, so 10,000 of them share one object shape; a getter literal per note gives each its
 * own closures and shape, which made opening a 10,000-note cache several times slower
 * (docs/performance.md, "cold path").
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
  #bodyOf: (() => string) | null;
  #body = '';
  #links: string[] | undefined;

  static readonly #bodyAccessor: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: CachedNote): string {
      if (this.#bodyOf) {
        this.#body = this.#bodyOf();
        this.#bodyOf = null;
      }
      return this.#body;
    },
    set(this: CachedNote, value: string) {
      this.#body = value;
      this.#bodyOf = null;
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
    meta: Omit<Note, 'body'>,
    scope: Scope,
    file: string,
    mtimeMs: number,
    hash: string,
    bodyOf: () => string,
  ) {
    this.#bodyOf = bodyOf;
    // The same property order as storedNote's (JSON output keeps its key order).
    this.id = meta.id;
    this.summary = meta.summary;
    this.type = meta.type;
    this.tags = meta.tags;
    this.createdAt = meta.createdAt;
    this.updatedAt = meta.updatedAt;
    Object.defineProperty(this, 'body', CachedNote.#bodyAccessor);
    this.extra = meta.extra;
    this.scope = scope;
    this.path = file;
    this.mtimeMs = mtimeMs;
    this.hash = hash;
    Object.defineProperty(this, 'links', CachedNote.#linksAccessor);
  }
}

/** A StoredNote for a note the index cache holds: metadata and hash given, the body read by `bodyOf` when first needed. */
export function cachedNote(...args: ConstructorParameters<typeof CachedNote>): StoredNote {
  return new CachedNote(...args);
}
