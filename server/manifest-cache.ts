import { EMPTY_MANIFEST, type LoadedManifest, parseManifest, type StoredManifest } from './manifest.js';
import { UNCHANGED, type StorageAdapter } from './storage/storage.js';

/**
 * The manifests this process has read or written, parsed, by storage key. Every use validates the
 * cached version against storage with `getIfChanged` — one stat on the filesystem, a conditional
 * GET answered 304 on S3 — so an instance never answers from a version another instance replaced;
 * only a changed manifest is read, parsed and schema-checked again. A manifest this process wrote
 * is cached as the object it serialized (no parse, no zod). At most `maxScopes` are kept (least
 * recently used dropped first).
 */
export class ManifestCache {
  private readonly entries = new Map<string, { manifest: StoredManifest; etag: string }>();

  constructor(
    private readonly storage: StorageAdapter,
    private readonly maxScopes = 1000,
  ) {}

  async load(key: string): Promise<LoadedManifest> {
    const cached = this.entries.get(key);
    const got = cached ? await this.storage.getIfChanged(key, cached.etag) : await this.storage.get(key);
    if (got === UNCHANGED) {
      this.touch(key, cached!);
      return { manifest: cached!.manifest, etag: cached!.etag };
    }
    if (got === null) {
      this.entries.delete(key);
      return { manifest: EMPTY_MANIFEST, etag: null };
    }
    const manifest = parseManifest(got.body, key);
    this.touch(key, { manifest, etag: got.etag });
    return { manifest, etag: got.etag };
  }

  /** A manifest this process has just published with `etag`. */
  remember(key: string, manifest: StoredManifest, etag: string): void {
    this.touch(key, { manifest, etag });
  }

  private touch(key: string, entry: { manifest: StoredManifest; etag: string }): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxScopes) this.entries.delete(this.entries.keys().next().value!);
  }
}
