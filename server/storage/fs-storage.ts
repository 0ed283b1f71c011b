import { createHash, randomBytes } from 'node:crypto';
import {
  type BigIntStats,
  type Dirent,
  closeSync,
  fsync,
  linkSync,
  openSync,
  promises as fs,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PreconditionFailedError, StorageUnavailableError, UNCHANGED } from './storage.js';
import type { ObjectBody, PutCondition, StoredObject } from './storage.js';
import { StorageBase, checkedKey } from './storage-base.js';
import { ScratchBuffers } from './scratch-buffers.js';

/**
 * Object storage in a local directory: one file per key. Unconditional writes are temp file +
 * fsync + rename; create-only writes link the temp file into place (link fails if the name is
 * taken, atomically); compare-and-swap writes take a per-key lock file (created exclusively), read
 * and compare the ETag (sha256 of the content), then rename. A process killed at any point leaves
 * either the old or the new file, never a torn one. A lock left by a dead process on this host is
 * broken; a lock older than `staleLockMs` (another host on a shared disk) is broken as well.
 *
 * `getIfChanged` answers from one stat: every version of a key is a new file (rename), and a
 * compare-and-swap gives the new file an mtime later than the one it replaces, so (inode, size,
 * mtime) never repeats for a key and equal stats mean the very version whose ETag was recorded.
 *
 * Stats are synchronous: a stat of the store's own files costs a few µs on the main thread, an
 * asynchronous one ~35 µs of its CPU (the thread pool's round trip, and for a missing file an
 * exception built). Every poll stats its manifest and looks for the account's keyring, which
 * mostly is not there (bench/server-load). So are the small calls of a write (link, utimes, the lock
 * file); contents, fsyncs, renames (which free the replaced file) and new directories stay
 * asynchronous, off the main thread.
 */
export interface FsStorageOptions {
  staleLockMs?: number;
  /**
   * Test hook, awaited once per compare-and-swap: after the new content is on disk, before the
   * lock is taken and the expected version checked (where a rival writer can still win the race,
   * or a kill leaves the previous version in place).
   */
  beforePublish?: (key: string) => Promise<void>;
}

const HOST = hostname();
/** Keys whose (stat signature → ETag) this process remembers, for getIfChanged. */
const MAX_SEEN = 10_000;
/** How far past the replaced version's mtime a compare-and-swap sets the new one (see above). */
const MTIME_STEP_NS = 10_000n;

export class FsStorage extends StorageBase {
  readonly kind = 'fs';
  private readonly staleLockMs: number;
  private readonly seen = new Map<string, { sig: string; etag: string }>();
  private readonly scratch = new ScratchBuffers();

  constructor(
    readonly root: string,
    private readonly options: FsStorageOptions = {},
  ) {
    super();
    this.staleLockMs = options.staleLockMs ?? 30_000;
  }

  describe(): string {
    return `filesystem at ${this.root}`;
  }

  async check(): Promise<void> {
    try {
      await fs.mkdir(this.root, { recursive: true });
      const probe = path.join(this.root, `.probe-${randomBytes(6).toString('hex')}`);
      await fs.writeFile(probe, 'ok');
      await fs.unlink(probe);
    } catch (err) {
      throw new StorageUnavailableError(
        `the data directory ${this.root} is not writable: ${(err as Error).message}`,
      );
    }
  }

  protected failureMessage(err: unknown): string {
    return `filesystem storage failed: ${(err as Error).message}`;
  }

  /** The file of a checked key (StorageBase checks every key; prefixes are checked where cut). */
  private filePath(key: string): string {
    return path.join(this.root, ...key.split('/'));
  }

  protected async read(key: string): Promise<StoredObject | null> {
    // A missing file (erase markers, keyrings: most accounts have neither) answered without an open.
    if (!statSync(this.filePath(key), { throwIfNoEntry: false })) return null;
    return (await this.readVersion(key))?.object ?? null;
  }

  protected async readIfChanged(key: string, etag: string): Promise<StoredObject | null | typeof UNCHANGED> {
    if (this.seen.get(key)?.etag === etag) {
      const now = await this.currentVersion(key);
      if (now === null) return null;
      if (now.etag === etag) return UNCHANGED;
    }
    const read = await this.readVersion(key);
    if (!read) return null;
    return read.object.etag === etag ? UNCHANGED : read.object;
  }

  /** The ETag and stat signature of the key's file now: one stat when this process knows it. */
  private async currentVersion(key: string): Promise<{ etag: string; sig: string } | null> {
    const known = this.seen.get(key);
    if (known) {
      const stat = statSync(this.filePath(key), { bigint: true, throwIfNoEntry: false });
      if (!stat) return null;
      if (signature(stat) === known.sig) return known;
    }
    const read = await this.readVersion(key);
    return read && { etag: read.object.etag, sig: read.sig };
  }

  /** The content and the stat of the same file (one open), remembered for getIfChanged. */
  private async readVersion(key: string): Promise<{ object: StoredObject; sig: string } | null> {
    const file = this.filePath(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (err) {
      // Only a missing file is "no object": a file where a directory should be (ENOTDIR) means the
      // data directory is damaged, and must not read as an empty scope.
      if (isCode(err, 'ENOENT')) return null;
      throw err;
    }
    try {
      const sig = signature(await handle.stat({ bigint: true }));
      const body = await handle.readFile();
      const object = { body, etag: etagOf(body) };
      this.remember(key, sig, object.etag);
      return { object, sig };
    } finally {
      await handle.close();
    }
  }

  private remember(key: string, sig: string, etag: string): void {
    this.seen.delete(key);
    this.seen.set(key, { sig, etag });
    if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.keys().next().value!);
  }

  protected async write(key: string, body: ObjectBody, condition: PutCondition): Promise<{ etag: string }> {
    const file = this.filePath(key);
    const encoded = Buffer.isBuffer(body)
      ? { bytes: body, release: () => undefined }
      : this.scratch.encode(body);
    let etag: string;
    let temp: string;
    try {
      etag = etagOf(encoded.bytes);
      temp = await writeTemp(file, encoded.bytes);
    } finally {
      encoded.release();
    }
    let placed = false; // the temp file renamed into place: nothing left to remove
    try {
      if (condition.ifMatch === undefined && condition.ifNoneMatch === '*') {
        // Create-only: link() is atomic and fails when the name exists.
        try {
          linkSync(temp, file);
        } catch (err) {
          if (isCode(err, 'EEXIST')) throw new PreconditionFailedError(key);
          throw err;
        }
        await syncDir(path.dirname(file));
        return { etag };
      }
      if (condition.ifMatch === undefined) {
        await fs.rename(temp, file);
        placed = true;
        await syncDir(path.dirname(file));
        return { etag };
      }
      const expected = condition.ifMatch;
      await this.options.beforePublish?.(key);
      await this.withLock(file, async () => {
        const current = await this.currentVersion(key);
        if (current === null || current.etag !== expected) throw new PreconditionFailedError(key);
        // Strictly later than the version replaced, whatever the clocks say (see the class note).
        const replacedMtime = BigInt(current.sig.split(':')[2]!);
        const nowNs = BigInt(Date.now()) * 1_000_000n;
        const mtimeNs = nowNs > replacedMtime + MTIME_STEP_NS ? nowNs : replacedMtime + MTIME_STEP_NS;
        const seconds = Number(mtimeNs) / 1e9;
        utimesSync(temp, seconds, seconds);
        const sig = signature(statSync(temp, { bigint: true }));
        // Asynchronous: replacing a file frees the old one's blocks, ~0.3 ms of the main thread.
        await fs.rename(temp, file);
        placed = true;
        this.remember(key, sig, etag);
        await syncDir(path.dirname(file));
      });
      return { etag };
    } finally {
      if (!placed) removeIfThere(temp);
    }
  }

  protected async remove(key: string): Promise<void> {
    try {
      await fs.unlink(this.filePath(key));
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) return;
      throw err;
    }
  }

  protected async keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      let names: Dirent[];
      try {
        names = await fs.readdir(dir, { withFileTypes: true });
      } catch (err) {
        if (isCode(err, 'ENOENT')) return;
        throw err;
      }
      for (const entry of names) {
        if (entry.name.startsWith('.')) continue; // temp and lock files
        const key = keyPrefix + entry.name;
        if (entry.isDirectory()) await walk(path.join(dir, entry.name), key + '/');
        else keys.push(key);
      }
    };
    // Walk from the deepest whole directory in the prefix, then filter on the full prefix.
    const cut = prefix.lastIndexOf('/');
    const dirKey = cut >= 0 ? prefix.slice(0, cut) : '';
    const start = dirKey ? this.filePath(checkedKey(dirKey)) : this.root;
    await walk(start, dirKey ? dirKey + '/' : '');
    return keys.filter((key) => key.startsWith(prefix));
  }

  protected async removeAll(prefix: string, keys: string[]): Promise<void> {
    for (const key of keys) await this.remove(key);
    if (prefix.endsWith('/')) {
      await fs
        .rm(this.filePath(checkedKey(prefix.slice(0, -1))), { recursive: true, force: true })
        .catch(() => undefined); // tidying empty directories: the keys are deleted already
    }
  }

  /** Runs `fn` holding `<dir>/.<name>.lock`, created exclusively; breaks locks of dead holders. */
  private async withLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
    const lock = path.join(path.dirname(file), `.${path.basename(file)}.lock`);
    const nonce = uniqueSuffix();
    const content = JSON.stringify({ pid: process.pid, host: HOST, nonce, at: Date.now() });
    const deadline = Date.now() + 60_000;
    for (let attempt = 0; ; attempt++) {
      try {
        writeFileSync(lock, content, { flag: 'wx' });
        break;
      } catch (err) {
        if (!isCode(err, 'EEXIST')) throw err;
        await this.breakIfStale(lock);
        if (Date.now() > deadline) throw new StorageUnavailableError(`could not lock ${file} within 60 s`);
        await sleep(Math.min(50, 1 + attempt) * Math.random());
      }
    }
    try {
      return await fn();
    } finally {
      // Remove our lock only if it is still ours (another process may have broken it as stale).
      if (readIfThere(lock) === content) removeIfThere(lock);
    }
  }

  private async breakIfStale(lock: string): Promise<void> {
    let text: string;
    let mtimeMs: number;
    try {
      text = await fs.readFile(lock, 'utf8');
      mtimeMs = (await fs.stat(lock)).mtimeMs;
    } catch {
      return; // gone already
    }
    let holder: { pid?: number; host?: string; nonce?: string } = {};
    try {
      holder = JSON.parse(text) as typeof holder;
    } catch {
      // A lock file cut short by a crash while it was being written: stale once it is a little old.
      if (Date.now() - mtimeMs < 2_000) return;
    }
    const dead =
      holder.host === HOST && typeof holder.pid === 'number'
        ? !processAlive(holder.pid)
        : Date.now() - mtimeMs > this.staleLockMs;
    if (!dead && holder.nonce !== undefined) return;
    // Move it aside, then make sure what we moved is the stale lock we judged (not a new one).
    const aside = `${lock}.broken-${randomBytes(6).toString('hex')}`;
    try {
      await fs.rename(lock, aside);
    } catch {
      return; // another process broke it first
    }
    const moved = await fs.readFile(aside, 'utf8').catch(() => ''); // unreadable: treated as not the lock judged
    if (moved !== text) await fs.link(aside, lock).catch(() => undefined); // put a live lock back
    await fs.unlink(aside).catch(() => undefined); // a stray .broken file holds no lock
  }
}

const fsyncAsync = promisify(fsync);

/**
 * Temp file names and lock nonces: unique among the processes sharing the data directory (a random
 * tag per process) and within this one (a counter), without a call for random bytes per write.
 */
const PROCESS_TAG = randomBytes(6).toString('hex');
let uniqueCounter = 0;
function uniqueSuffix(): string {
  return `${PROCESS_TAG}-${(uniqueCounter++).toString(36)}`;
}

/**
 * Unlinks a temp or lock file of ours that is no longer needed; one gone already, or that cannot be
 * removed (a directory turned read-only), is left: a temp file is a dot-file never listed as a key,
 * and a lock left behind makes later writes of that key fail with "could not lock", not corrupt it.
 * Never throws: it runs in `finally`, where an error would hide the one that got there.
 */
function removeIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // See above.
  }
}

/** The file's text; null when it is gone or cannot be read (a lock that is not ours to remove). */
function readIfThere(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function etagOf(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

/** What identifies one version of a key's file (see the class note). */
function signature(stat: BigIntStats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

/** `data` in a new temp file beside `file`, on disk (fsynced); the directory is made when missing. */
async function writeTemp(file: string, data: Buffer): Promise<string> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.tmp-${uniqueSuffix()}`);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(temp, 'wx');
  } catch (err) {
    if (!isCode(err, 'ENOENT')) throw err;
    await fs.mkdir(path.dirname(file), { recursive: true });
    handle = await fs.open(temp, 'wx');
  }
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

async function syncDir(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return; // Directories cannot be opened for fsync on every platform (Windows); the rename is still atomic.
  }
  try {
    await fsyncAsync(fd);
  } catch {
    // Nor fsynced on every platform; the rename is still atomic.
  } finally {
    closeSync(fd);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return isCode(err, 'EPERM');
  }
}

function isCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
