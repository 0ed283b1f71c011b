import { promises as fs } from 'node:fs';
import path from 'node:path';
import { contentHash } from '../../shared/content-hash.js';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { AppError } from '../../shared/errors.js';
import type { Note } from '../../shared/note.js';
import type { LocalOnlyNote } from '../../shared/api/sync.js';
import type { RoundPoint } from '../../electron/sync/round/types.js';
import type { StoredNote } from '../../electron/memory/types.js';
import { signUserToken } from '../../server/index.js';
import { FakeClock } from '../sync/fake-clock.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../sync/fault-proxy.js';
import { mulberry32 } from '../support/prng.js';
import { SIM_SECRET, SimCluster, type ClusterStorage } from './cluster.js';
import type { SimAccountMode } from './encrypted-account.js';
import { leaveKilledProcessFiles, startDevice, stopDevice, type SimDevice } from './device.js';
import { FILE_FAULTS, restoreFile, type FileFault } from './file-faults.js';
import { EXISTS, Ledger, markersOf, type Version } from './ledger.js';
import { ramTempDir } from '../support/temp-dir.js';

/**
 * A seeded randomized simulation of the sync engine, in the spirit of Dropbox's Nucleus tests:
 * three devices of one account, random creates / edits / deletes / toggles / syncs / conflict
 * resolutions, against three instances of the REAL sync server over one shared store (test/sim/
 * cluster.ts), each request sent to an instance at random, behind a fault-injecting proxy.
 *
 * Faults (SIM_FAULTS): of the server — 500s, 429s, answers lost after the server committed, slow
 * answers, an instance that dies (and a new one that takes its place later); of the process — a
 * kill at a crash point of a round (every await that writes, asks or saves: the round freezes
 * there, its locks and a cut-short temp file stay, a new process starts on the same files), an edit
 * made by a person while a round runs; of the notes folder — files broken by hand and fixed later
 * (file-faults.ts), a file copied to a new name (identical twins), a file whose id differs from
 * another only in case, a config that lowers `memory.maxNotes` (the oldest notes are skipped); of
 * an agent — foreign frontmatter keys added or removed with no other change (SimOptions.keyEdits,
 * drawn from a stream of their own so the other steps of a seed stay as they were; expected: each
 * key syncs and merges like a line, key by key); of the operator (SimOptions.serverLoss, a stream
 * of its own too; directory stores only) — the account's server data wiped, or restored from a
 * backup taken some steps earlier, the instances restarted (expected: the devices notice, delete
 * nothing here, upload again what the cloud lost; a note the person deleted may come back only
 * where the lost cloud was the only record of the delete and a device or the restored backup still
 * held it (Ledger.mayReturn); every other decision holds, differing versions becoming conflicts the
 * person resolves). Fault still to add (docs/sync-engine.md):
 * project moves.
 *
 * Invariants (ledger.ts is the final oracle):
 *   - during the run: a note held here is never replaced or deleted by sync without a backup of
 *     that version; sync deletes a note here only if a person deleted that id somewhere; a file
 *     that is on disk but not loaded is never deleted or overwritten
 *   - after quiescence (faults off, files fixed, sync on, conflicts resolved, rounds until nothing
 *     moves): every device holds exactly the notes of the server's store (read from the store
 *     itself), and the ledger's check holds: every person's decision on every marker, exactly
 * Every failure names its seed; `SIM_SEED=<seed>` replays it.
 */
export const SIM_FAULTS = [
  'server 500',
  'server 429',
  'answer lost after commit',
  'slow answer',
  'instance dies / new instance',
  'kill at a round crash point',
  'edit during a round',
  ...FILE_FAULTS.map((f) => f.name),
  'identical twin',
  'case twin',
  'lowered memory.maxNotes',
  'foreign keys edited alone',
  'server data wiped',
  'server data restored from an older backup',
] as const;

export interface SimOptions {
  steps?: number;
  devices?: number;
  faultRate?: number;
  crashRate?: number;
  /** The account as something other than plain (end-to-end encrypted: test/sim/encrypted-account.ts). */
  account?: () => SimAccountMode;
  /** Foreign-key edits between steps (default on; seeds found before they existed replay without). */
  keyEdits?: boolean;
  /**
   * The server's data wiped or rolled back between steps (off in this class so that seeds found before
   * it existed replay as they ran; on in simulation.test.ts and the soak — `SIM_SERVER_LOSS=0`,
   * `npm run soak -- --no-server-loss` leave it out).
   */
  serverLoss?: boolean;
}

export interface SimResult {
  seed: number;
  rounds: number;
  faults: number;
  crashes: number;
  fileFaults: number;
  /** Foreign-key edits made alone (keysStep). */
  keyEdits: number;
  /** The server's data wiped or restored from an older backup (lossStep). */
  serverLosses: number;
  conflicts: number;
  notes: number;
  /** Markers the oracle checked (each person's edit writes one). */
  markers: number;
}

/** SIM_TRACE=1: each round's changes and the store after it go into the log, printed whole (pass or fail). */
const TRACE = process.env.SIM_TRACE === '1';

export class SimulationFailure extends Error {
  constructor(
    readonly seed: number,
    message: string,
    readonly log: string[],
    serverLoss = false,
  ) {
    super(
      `seed ${seed}: ${message}\n  replay: ${serverLoss ? '' : 'SIM_SERVER_LOSS=0 '}SIM_SEED=${seed} npx vitest run test/sim/simulation.test.ts\n  last steps:\n    ${log.slice(TRACE ? 0 : -Number(process.env.SIM_LOG ?? 30)).join('\n    ')}`,
    );
  }
}

const version = (n: Pick<Note, 'summary' | 'tags' | 'body' | 'extra'> | null | undefined): Version =>
  n
    ? { summary: n.summary, tags: [...n.tags], body: n.body, ...(n.extra ? { extra: { ...n.extra } } : {}) }
    : null;

/** A person's file broken by hand on one device: the text it had, and how it was broken. */
interface BrokenFile {
  text: string;
  fault: FileFault;
}

export class Simulation {
  readonly rand: () => number;
  /** The stream the foreign-key edits draw from (the other steps keep `rand` as before they existed). */
  private readonly keysRand: () => number;
  /** The stream the operator's wipes and restores draw from. */
  private readonly lossRand: () => number;
  /** The operator's last backup of the account's server data: where, and its notes. */
  private serverBackup: { dir: string; notes: Map<string, { content: string }> } | null = null;
  readonly log: string[] = [];
  readonly ledger: Ledger;
  devices: SimDevice[] = [];
  private enabled: boolean[] = [];
  /**
   * Per device, whether a round of it ended `ok` since the cloud last lost its history: until then
   * its person edits against a baseline the cloud no longer holds (Ledger.edited's `againstLostHistory`).
   */
  private readonly caughtUpWithLoss: boolean[] = [];
  private faultsOn = true;
  private proxy!: FaultProxy;
  private cluster!: SimCluster;
  private token = '';
  private user = '';
  private root = '';
  /** Ids a person deleted anywhere (or gave up for the cloud's side): sync may delete those. */
  private readonly chosenDeletes = new Set<string>();
  private readonly broken = new Map<number, Map<string, BrokenFile>>();
  /** Case twins a person wrote, per device: the twin's id. */
  private readonly caseTwins = new Map<number, Set<string>>();
  private readonly lowered = new Set<number>();
  private renames = 0;
  /** The store as the trace last printed it (printed again only when it changed). */
  private tracedStore = '';
  private readonly faultRate: number;
  private readonly crashRate: number;
  private readonly account: SimAccountMode | null;
  stats = { rounds: 0, faults: 0, crashes: 0, fileFaults: 0, keyEdits: 0, serverLosses: 0, conflicts: 0 };
  /** The crash points processes were killed at, in order, with the lock files each left. */
  readonly kills: Array<{ point: RoundPoint; locks: string[] }> = [];

  constructor(
    readonly seed: number,
    private readonly storage: ClusterStorage,
    private readonly opts: SimOptions = {},
  ) {
    this.rand = mulberry32(seed);
    this.keysRand = mulberry32(seed ^ 0x6b657973);
    this.lossRand = mulberry32(seed ^ 0x6c6f7373);
    this.ledger = new Ledger(seed);
    this.faultRate = opts.faultRate ?? 0.12;
    this.crashRate = opts.crashRate ?? 0.08;
    this.account = opts.account?.() ?? null;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.rand() < p;
  }
  fail(message: string): never {
    throw new SimulationFailure(this.seed, message, this.log, this.opts.serverLoss === true);
  }

  async start(): Promise<void> {
    // Instances of this seed's own (a dead instance is this seed's fault), over the shared store.
    this.cluster = await SimCluster.start({ storage: this.storage });
    this.proxy = await startFaultProxy(
      () => this.cluster.url(Math.floor(this.rand() * this.cluster.size)),
      ({ url }) => this.serverFault(url),
    );
    this.user = `sim-${this.seed}-${Math.floor(this.rand() * 1e9)}`;
    this.token = await signUserToken({
      secret: SIM_SECRET,
      user: this.user,
      plan: 'paid',
      ttlSeconds: 86400,
    });
    await this.account?.prepare(this.cluster.url(0), this.token);
    this.root = await ramTempDir(`sim-${this.seed}`);
    for (let i = 0; i < (this.opts.devices ?? 3); i++) {
      this.devices.push(await this.startOn(i, 0, new FakeClock()));
      this.enabled.push(true);
    }
  }

  private async startOn(index: number, life: number, clock: FakeClock): Promise<SimDevice> {
    const home = path.join(this.root, `device-${index}`);
    const login = { url: this.proxy.url, token: this.token };
    return startDevice(index, home, life, clock, login, await this.account?.deviceKeys(login.url));
  }

  private serverFault(url: string): Fault {
    if (!this.faultsOn) return 'pass';
    const r = this.rand();
    const rate = this.faultRate;
    let fault: Fault = 'pass';
    if (r < rate / 4) fault = 'error500';
    else if (r < rate / 2) fault = { rate429: 1 };
    else if (r < (3 * rate) / 4 && url.includes('commit')) fault = 'drop';
    else if (r < rate) fault = { delayMs: 1 + Math.floor(this.rand() * 15) };
    if (fault !== 'pass') {
      this.stats.faults++;
      this.log.push(
        `  fault ${typeof fault === 'string' ? fault : 'rate429' in fault ? '429' : 'slow'} on ${url}`,
      );
    }
    return fault;
  }

  private brokenOn(i: number): Map<string, BrokenFile> {
    let m = this.broken.get(i);
    if (!m) this.broken.set(i, (m = new Map()));
    return m;
  }
  private twinsOn(i: number): Set<string> {
    let s = this.caseTwins.get(i);
    if (!s) this.caseTwins.set(i, (s = new Set()));
    return s;
  }
  private fileOf(d: SimDevice, id: string): string {
    return path.join(d.user.store!.dir, `${id}.md`);
  }

  /** Notes here by id → hash, and the ids of files on disk that are held (not loaded). */
  private snapshotOf(d: SimDevice): Map<string, string> {
    return new Map(d.user.store!.list().map((n) => [n.id, n.hash]));
  }
  private heldIds(d: SimDevice): Set<string> {
    return new Set(d.user.store!.held().map((h) => h.id));
  }

  /** Note `id` as its file holds it, loaded or held back by the store (null when there is none). */
  private async onDisk(d: SimDevice, id: string): Promise<Version> {
    const loaded = exactly(d, id);
    if (loaded) return version(loaded);
    const held = d.user.store!.held().find((h) => h.id === id);
    if (!held) return null;
    const parsed = parseNote(await fs.readFile(held.path, 'utf8'));
    return parsed.ok ? version(parsed.note) : null;
  }

  private async backupHashes(d: SimDevice): Promise<Set<string>> {
    const out = new Set<string>();
    for (const entry of await d.user.backups.list(1_000_000)) {
      const { content } = await d.user.backups.get(entry.id);
      const parsed = parseNote(content);
      if (parsed.ok) out.add(contentHash(parsed.note));
    }
    return out;
  }

  /**
   * A sync round on device `di`, perhaps killed at a crash point. Sync must never replace or delete
   * a version here without backing it up, nor delete what no person deleted.
   */
  async syncRound(
    di: number,
    allowCrash: boolean,
    crashAt: number | RoundPoint | null = null,
  ): Promise<void> {
    const d = this.devices[di]!;
    await d.user.store!.load();
    const before = this.snapshotOf(d);
    const beforeNotes = TRACE
      ? new Map(d.user.store!.list().map((n) => [n.id, markersOf(version(n))]))
      : null;
    const crashPoint =
      crashAt ?? (allowCrash && this.chance(this.crashRate) ? Math.floor(this.rand() * 24) : null);
    // Or: the person (an agent, an editor) writes a note while the round is between its commit
    // and its local writes; sync must not overwrite that edit.
    const interleave = allowCrash && crashPoint === null && this.chance(this.crashRate);
    const editedMeanwhile = new Set<string>();
    d.svc.hooks.afterCommit = interleave ? () => this.editDuringRound(d, editedMeanwhile) : undefined;
    let points = 0;
    let killedAt: RoundPoint | null = null;
    let killed!: () => void;
    const kill = new Promise<null>((resolve) => (killed = () => resolve(null)));
    d.svc.hooks.point =
      crashPoint === null
        ? undefined
        : async (name) => {
            // By index (the k-th crash point of the round) or by name (its first occurrence).
            if (typeof crashPoint === 'string' ? name !== crashPoint : points++ !== crashPoint) return;
            killedAt = name;
            killed();
            await new Promise<never>(() => {}); // a killed process never resumes
          };
    const result = await Promise.race([d.engine.syncNow([d.svc]).then((r) => r.get(d.svc)!), kill]);
    this.stats.rounds++;
    let current = d;
    if (result === null) {
      this.stats.crashes++;
      const locks = await leaveKilledProcessFiles(d);
      this.kills.push({ point: killedAt!, locks });
      this.log.push(
        `  device ${di} killed at ${killedAt} (crash point ${crashPoint}; locks left: ${locks.join(', ') || 'none'}); a new process starts`,
      );
      current = await this.startOn(di, d.life + 1, d.clock);
      this.devices[di] = current;
    } else {
      d.svc.hooks.point = undefined;
      this.log.push(`  device ${di} round: ${result.outcome}${d.svc.error ? ` (${d.svc.error.code})` : ''}`);
      if (result.outcome === 'ok') this.caughtUpWithLoss[di] = true;
    }
    await current.user.store!.load();
    const after = this.snapshotOf(current);
    if (TRACE) await this.traceRound(current, beforeNotes);
    const held = this.heldIds(current);
    const changed = [...before].filter(
      ([id, hash]) => after.get(id) !== hash && !editedMeanwhile.has(id) && !held.has(id),
    );
    for (const [id] of changed)
      if (!after.has(id) && !this.chosenDeletes.has(id))
        this.fail(`device ${di}: sync deleted "${id}", which no person deleted`);
    if (changed.length > 0) {
      const backed = await this.backupHashes(current);
      for (const [id, hash] of changed)
        if (!backed.has(hash))
          this.fail(`device ${di}: sync replaced or deleted "${id}" (${hash.slice(0, 8)}) without a backup`);
    }
    // A file a person broke stays as they left it: sync never writes over a file it cannot read.
    for (const [id, b] of this.brokenOn(di))
      if (b.fault.reason !== 'symlink' && !held.has(id))
        this.fail(`device ${di}: "${id}.md" (${b.fault.name}) is no longer held after a round`);
    this.stats.conflicts = Math.max(this.stats.conflicts, (await current.svc.conflicts()).length);
  }

  /**
   * SIM_TRACE=1: what a round changed here (markers each note gained or lost, by id), what it
   * reported, and the server's store after it — enough to follow a seed without a debugger.
   */
  private async traceRound(d: SimDevice, before: Map<string, Set<string>> | null): Promise<void> {
    const now = new Map(d.user.store!.list().map((n) => [n.id, markersOf(version(n))]));
    const ids = new Set([...(before?.keys() ?? []), ...now.keys()]);
    const changes: string[] = [];
    for (const id of [...ids].sort()) {
      const [b, a] = [before?.get(id), now.get(id)];
      if (!a) changes.push(`-${id}`);
      else if (!b) changes.push(`+${id}[${[...a].filter((m) => m !== EXISTS).join(' ')}]`);
      else {
        const diff = [
          ...[...a].filter((m) => !b.has(m)).map((m) => `+${m}`),
          ...[...b].filter((m) => !a.has(m)).map((m) => `-${m}`),
        ];
        if (diff.length > 0) changes.push(`~${id}(${diff.join(' ')})`);
      }
    }
    const t = d.svc.lastRound;
    this.log.push(
      `    trace ${d.index}: here ${changes.join(', ') || 'unchanged'}; ${t ? `pushed ${t.pushed}, pulled ${JSON.stringify(t.pulled)}, conflicts [${t.conflicts.join(',')}]${t.historyReset ? ', history reset' : ''}` : 'no transfer'}`,
    );
    const server = await this.cluster.read(this.user, { kind: 'user' }).catch(() => null);
    const seen = JSON.stringify(server && [...server.notes].map(([id, n]) => [id, n.hash]));
    if (seen === this.tracedStore) return;
    this.tracedStore = seen;
    if (server)
      this.log.push(
        `    trace store v${server.version}: ${[...server.notes]
          .map(([id, n]) => {
            const p = parseNote(n.content);
            return `${id}[${p.ok ? [...markersOf(version(p.note))].filter((m) => m !== EXISTS).join(' ') : '?'}]`;
          })
          .join(', ')}`,
      );
  }

  private async editDuringRound(d: SimDevice, editedMeanwhile: Set<string>): Promise<void> {
    const notes = d.user.store!.list();
    if (notes.length === 0) return;
    const note = this.pick(notes);
    const line = this.ledger.marker('line');
    editedMeanwhile.add(note.id);
    this.log.push(`  device ${d.index} edits ${note.id} during the round (${line})`);
    await this.write(
      d,
      note,
      { ...note, body: `${note.body}${line}\n`, updatedAt: d.clock.now() },
      `edit during a round on ${d.index}`,
    );
  }

  /** A person's write through the store, recorded in the ledger. */
  async write(d: SimDevice, before: StoredNote | null, after: Note, by: string): Promise<boolean> {
    if (!(await refused(() => d.user.store!.write(after), this.log))) return false;
    this.ledger.edited(d.index, after.id, version(before), version(after), by, {
      againstLostHistory: this.caughtUpWithLoss[d.index] === false,
    });
    return true;
  }

  async deleteNote(d: SimDevice, note: StoredNote, by: string): Promise<void> {
    const deleted = await refused(
      () => d.user.store!.delete(note.id, { backupReason: 'simulation: deleted by the person' }),
      this.log,
    );
    if (!deleted) return;
    this.chosenDeletes.add(note.id);
    this.ledger.edited(d.index, note.id, version(note), null, by);
  }

  // ---------------------------------------------------------------- a person's steps

  async create(d: SimDevice, id: string, by: string): Promise<void> {
    const line = this.ledger.marker('line');
    const tags = this.chance(0.5) ? [this.ledger.marker('tag')] : [];
    const note: Note = {
      id,
      summary: `${id} ${this.ledger.marker('sum')}`,
      tags,
      body: `${line}\nfiller a\nfiller b\nfiller c\n`,
      createdAt: d.clock.now(),
      updatedAt: d.clock.now(),
    };
    this.log.push(`${by}: device ${d.index} creates ${id} (${line})`);
    await this.write(d, null, note, by);
  }

  private async edit(d: SimDevice, note: StoredNote, by: string): Promise<void> {
    const lines = note.body.split('\n');
    const what: string[] = [];
    const markerLines = lines.map((l, i) => [l, i] as const).filter(([l]) => /^line-\d+-\d+$/.test(l));
    if (markerLines.length > 0 && this.chance(0.25)) {
      const [l, i] = this.pick(markerLines);
      lines.splice(i, 1);
      what.push(`removes ${l}`);
    }
    const at = Math.floor(this.rand() * lines.length);
    const line = this.ledger.marker('line');
    lines.splice(at, 0, line);
    what.push(`adds ${line} at ${at}`);
    let summary = note.summary;
    if (this.chance(0.12)) {
      summary = `${note.id} ${this.ledger.marker('sum')}`;
      what.push(`summary "${summary}"`);
    }
    let tags = note.tags;
    if (tags.length > 0 && this.chance(0.1)) {
      const gone = this.pick(tags);
      tags = tags.filter((t) => t !== gone);
      what.push(`removes tag ${gone}`);
    } else if (this.chance(0.12)) {
      const tag = this.ledger.marker('tag');
      tags = [...tags, tag];
      what.push(`adds tag ${tag}`);
    }
    this.log.push(`${by}: device ${d.index} edits ${note.id}: ${what.join(', ')}`);
    await this.write(
      d,
      note,
      { ...note, summary, tags, body: lines.join('\n'), updatedAt: d.clock.now() },
      by,
    );
  }

  private async breakOrFix(d: SimDevice, notes: StoredNote[], by: string): Promise<void> {
    const fixable = [...this.brokenOn(d.index).keys()];
    if (fixable.length > 0 && this.chance(0.5)) {
      await this.fixFile(d, this.pick(fixable));
      return;
    }
    const note = this.pick(notes);
    const file = this.fileOf(d, note.id);
    const text = await fs.readFile(file, 'utf8');
    const fault = this.pick(FILE_FAULTS);
    this.brokenOn(d.index).set(note.id, { text, fault });
    this.stats.fileFaults++;
    this.log.push(`${by}: device ${d.index} breaks ${note.id}.md by hand (${fault.name})`);
    await fault.apply(file, text, path.join(d.home, 'aside', `${note.id}.md`));
  }

  private async fixFile(d: SimDevice, id: string): Promise<void> {
    const b = this.brokenOn(d.index).get(id)!;
    this.brokenOn(d.index).delete(id);
    this.log.push(`  device ${d.index} fixes ${id}.md by hand (${b.fault.name})`);
    await restoreFile(this.fileOf(d, id), b.text);
  }

  /** `cp x.md y.md`: a note copied as a template; two ids, one content. */
  private async identicalTwin(d: SimDevice, note: StoredNote, twin: string, by: string): Promise<void> {
    if (d.user.store!.get(twin)) return;
    this.log.push(`${by}: device ${d.index} copies ${note.id}.md to ${twin}.md`);
    await fs.copyFile(this.fileOf(d, note.id), this.fileOf(d, twin));
    this.ledger.edited(d.index, twin, null, version(note), by);
  }

  /** A file whose id differs from an existing note's only in case (a copy made on Linux). */
  private async caseTwin(d: SimDevice, note: StoredNote, by: string): Promise<void> {
    const twin = note.id.charAt(0).toUpperCase() + note.id.slice(1);
    if (twin === note.id || (await fs.stat(this.fileOf(d, twin)).catch(() => null))) return;
    const line = this.ledger.marker('line');
    const copy: Note = { ...note, id: twin, body: `${note.body}${line}\n`, updatedAt: d.clock.now() };
    this.log.push(`${by}: device ${d.index} writes ${twin}.md beside ${note.id}.md (${line})`);
    await fs.writeFile(this.fileOf(d, twin), serializeNote(copy));
    this.twinsOn(d.index).add(twin);
    this.ledger.edited(d.index, twin, null, version(copy), by);
  }

  /**
   * The person renames a note to an id of its own: a case twin they wrote, or a note sync reports
   * as staying here because the cloud has its id in another case ("rename one").
   */
  private async rename(d: SimDevice, twin: string): Promise<void> {
    this.twinsOn(d.index).delete(twin);
    const file = this.fileOf(d, twin);
    const text = await fs.readFile(file, 'utf8').catch(() => null);
    const parsed = text === null ? null : parseNote(text);
    if (!parsed?.ok) return; // deleted meanwhile (a person deleted it on some device)
    // The file name is the id (the frontmatter may still name the twin's original).
    const note: Note = { ...parsed.note, id: twin } as Note;
    let fresh = `${twin.toLowerCase()}-renamed-${++this.renames}`;
    while (await fs.stat(this.fileOf(d, fresh)).catch(() => null))
      fresh = `${twin.toLowerCase()}-renamed-${++this.renames}`;
    this.log.push(`  device ${d.index} renames ${twin}.md to ${fresh}.md`);
    await fs.writeFile(this.fileOf(d, fresh), serializeNote({ ...note, id: fresh }));
    await fs.rm(file);
    this.chosenDeletes.add(twin);
    this.ledger.edited(d.index, fresh, null, version(note), `rename of ${twin} on ${d.index}`);
    this.ledger.edited(d.index, twin, version(note), null, `rename of ${twin} on ${d.index}`);
  }

  /** A config (from a `git pull`, say) lowers memory.maxNotes, or the person removes it; the app restarts. */
  private async setMaxNotes(di: number, maxNotes: number | null): Promise<void> {
    const d = this.devices[di]!;
    const file = path.join(d.home, 'config.json');
    if (maxNotes === null) {
      this.lowered.delete(di);
      await fs.rm(file, { force: true });
    } else {
      this.lowered.add(di);
      await fs.writeFile(file, JSON.stringify({ memory: { maxNotes } }));
    }
    this.log.push(`  device ${di}: memory.maxNotes ${maxNotes ?? 'default'}; restart`);
    await stopDevice(d);
    this.devices[di] = await this.startOn(di, d.life + 1, d.clock);
  }

  private async serverInstance(): Promise<void> {
    const dead = [...Array(this.cluster.size).keys()].filter((i) => !this.cluster.isAlive(i));
    if (dead.length > 0 && this.chance(0.6)) {
      const i = this.pick(dead);
      this.log.push(`  server instance ${i} replaced by a new process`);
      await this.cluster.revive(i);
    } else if (dead.length < this.cluster.size - 1) {
      const i = this.pick([...Array(this.cluster.size).keys()].filter((k) => this.cluster.isAlive(k)));
      this.stats.faults++;
      this.log.push(`  server instance ${i} dies`);
      await this.cluster.kill(i);
    }
  }

  async resolveOne(di: number, all: boolean): Promise<void> {
    const d = this.devices[di]!;
    await d.user.store!.load();
    const held = this.heldIds(d);
    // A conflict on a held file waits until the person fixes the file (the store refuses to write
    // over a file it cannot read).
    const resolvable = (await d.svc.conflicts()).filter((c) => !held.has(c.id));
    for (const c of all ? resolvable : resolvable.slice(0, 1)) {
      let choice: 'local' | 'cloud' | 'both' | 'merged' = this.pick([
        'local',
        'cloud',
        'both',
        'merged',
      ] as const);
      this.log.push(`  device ${di} resolves ${c.id} (${c.kind}) → ${choice}`);
      const detail = await d.svc.conflict(c.id);
      const sides = { local: version(detail.local), cloud: version(detail.cloud) };
      const resolveAs = (keep: typeof choice) =>
        keep === 'merged'
          ? d.svc.resolve(c.id, { merged: { ...detail.draft, summary: detail.draft.summary || 'merged' } })
          : d.svc.resolve(c.id, { keep });
      let outcome: Awaited<ReturnType<typeof resolveAs>> | undefined;
      // Writing the chosen side under its id is refused when another note here has that id
      // ignoring case; the person is told so and keeps both instead (the cloud's side gets a new id).
      if (!(await refused(async () => (outcome = await resolveAs(choice)), this.log))) {
        choice = 'both';
        this.log.push(`  device ${di} resolves ${c.id} → both instead`);
        outcome = await resolveAs(choice);
      }
      const by = `resolution of ${c.id} (${c.kind}) on ${di} → ${choice}`;
      if (TRACE) {
        const show = (v: Version) => (v ? [...markersOf(v)].filter((m) => m !== EXISTS).join(' ') : 'none');
        this.log.push(
          `    trace sides: here [${show(sides.local)}], cloud [${show(sides.cloud)}]; left [${show(version(exactly(d, c.id)))}]${outcome?.newId ? `, new ${outcome.newId}` : ''}`,
        );
      }
      if (choice === 'cloud') this.chosenDeletes.add(c.id);
      await d.user.store!.load();
      const twoCreations = c.kind === 'no_base' && c.baseHash === null;
      // What the resolution left on disk: the store may hold that file back (a lowered maxNotes
      // skips the oldest notes once keeping both adds one), which is not a deletion.
      this.ledger.resolved(di, c.id, sides, await this.onDisk(d, c.id), by, twoCreations);
      if (outcome?.newId)
        this.ledger.edited(di, outcome.newId, null, await this.onDisk(d, outcome.newId), by);
    }
  }

  /** The fail-safe asked; the person answers (and the ledger records what they chose). */
  private async answerFailSafe(di: number): Promise<void> {
    const d = this.devices[di]!;
    const pending = d.svc.pendingDeletes;
    if (!pending) return;
    const answer = this.pick(['delete', 'keep'] as const);
    this.log.push(`  device ${di} answers the fail-safe (${pending.ids.length} deletes): ${answer}`);
    for (const id of pending.ids) {
      const local = version(exactly(d, id));
      this.ledger.resolved(
        di,
        id,
        { local, cloud: null },
        answer === 'keep' ? local : null,
        `fail-safe on ${di} → ${answer}`,
      );
    }
    await d.svc.decidePendingDeletes(answer);
  }

  async step(step: number): Promise<void> {
    const di = Math.floor(this.rand() * this.devices.length);
    const d = this.devices[di]!;
    const store = d.user.store!;
    await store.load();
    const notes = store.list();
    const held = this.heldIds(d);
    const r = this.rand();
    d.clock.t += 1000;
    const by = `step ${step}`;
    if (r < 0.18 || notes.length === 0) {
      const id = this.chance(0.5) ? this.pick(ID_POOL) : `n-${di}-${step}`;
      if (store.get(id) || held.has(id) || this.brokenOn(di).has(id)) return;
      await this.create(d, id, by);
    } else if (r < 0.46) {
      await this.edit(d, this.pick(notes), by);
    } else if (r < 0.49) {
      await this.breakOrFix(d, notes, by);
    } else if (r < 0.55) {
      const note = this.pick(notes);
      this.log.push(`${by}: device ${di} deletes ${note.id}`);
      await this.deleteNote(d, note, by);
    } else if (r < 0.83) {
      this.log.push(`${by}: device ${di} syncs`);
      await this.syncRound(di, true);
    } else if (r < 0.88) {
      this.enabled[di] = !this.enabled[di];
      this.log.push(`${by}: device ${di} turns sync ${this.enabled[di] ? 'on' : 'off'}`);
      await d.engine.setEnabled([d.svc], this.enabled[di]!);
    } else if (r < 0.93) {
      this.log.push(`${by}: device ${di} resolves a conflict`);
      await this.resolveOne(di, false);
    } else if (r < 0.945) {
      await this.identicalTwin(d, this.pick(notes), `twin-${di}-${step}`, by);
    } else if (r < 0.96) {
      await this.caseTwin(d, this.pick(notes), by);
    } else if (r < 0.975) {
      this.log.push(`${by}: device ${di} config`);
      await this.setMaxNotes(di, this.lowered.has(di) ? null : Math.max(1, notes.length - 2));
    } else if (this.faultsOn) {
      this.log.push(`${by}: server`);
      await this.serverInstance();
    }
  }

  /**
   * An agent adds a foreign frontmatter key of its own (`kN`, a unique marker as its value) to a
   * note, or removes one, and changes nothing else: the edit must sync like any other.
   */
  async keysStep(step: number): Promise<void> {
    if (this.opts.keyEdits === false || this.keysRand() >= 0.08) return;
    const d = this.devices[Math.floor(this.keysRand() * this.devices.length)]!;
    await d.user.store!.load();
    const notes = d.user.store!.list();
    if (notes.length === 0) return;
    const note = notes[Math.floor(this.keysRand() * notes.length)]!;
    const { extra: before, ...rest } = note;
    const extra: Record<string, unknown> = { ...before };
    const ours = Object.keys(extra).filter((k) => /^k\d+$/.test(k));
    let what: string;
    if (ours.length > 0 && this.keysRand() < 0.3) {
      const gone = ours[Math.floor(this.keysRand() * ours.length)]!;
      what = `removes key ${gone} (${String(extra[gone])})`;
      delete extra[gone];
    } else {
      const marker = this.ledger.marker('key');
      const key = `k${marker.slice(marker.lastIndexOf('-') + 1)}`;
      extra[key] = marker;
      what = `adds key ${key}: ${marker}`;
    }
    const by = `keys after step ${step}`;
    this.log.push(`${by}: device ${d.index} ${what} in ${note.id}`);
    this.stats.keyEdits++;
    const after: Note = {
      ...rest,
      updatedAt: d.clock.now(),
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    };
    await this.write(d, note, after, by);
  }

  /** The operator backs the account's server data up, wipes it, or restores the last backup. */
  async lossStep(step: number): Promise<void> {
    if (!this.opts.serverLoss || !this.cluster.restorable) return;
    const r = this.lossRand();
    if (r < 0.06) {
      const dir = path.join(this.root, 'server-backup');
      await this.cluster.backUp(this.user, dir);
      this.serverBackup = { dir, notes: (await this.cluster.read(this.user, { kind: 'user' })).notes };
      this.log.push(`  operator backs the server's data up after step ${step}`);
    } else if (r < 0.075) {
      await this.loseHistory(null, `server data wiped after step ${step}`);
    } else if (r < 0.09 && this.serverBackup) {
      await this.loseHistory(
        this.serverBackup,
        `server data restored from the last backup after step ${step}`,
      );
    }
  }

  /**
   * The cloud loses its history. What it was the only record of cannot be known any more: a note a
   * person deleted may come back when a device still holds it or the restored backup does (it is
   * uploaded again, or pulled), or stay deleted — the ledger accepts either (Ledger.mayReturn).
   */
  private async loseHistory(
    restored: { dir: string; notes: Map<string, { content: string }> } | null,
    by: string,
  ): Promise<void> {
    this.stats.serverLosses++;
    for (let i = 0; i < this.devices.length; i++) this.caughtUpWithLoss[i] = false;
    this.log.push(`  ${by}`);
    // Every version still somewhere; the ledger keeps those holding what a person deleted.
    const comeBack: Array<{ device: number; id: string; v: Version }> = [];
    for (const [id, n] of restored?.notes ?? []) {
      const parsed = parseNote(n.content);
      if (parsed.ok) comeBack.push({ device: -1, id, v: version(parsed.note) });
    }
    for (const d of this.devices) {
      await d.user.store!.load();
      for (const note of d.user.store!.list())
        comeBack.push({ device: d.index, id: note.id, v: version(note) });
      for (const [id, b] of this.brokenOn(d.index)) {
        const parsed = parseNote(b.text);
        if (parsed.ok) comeBack.push({ device: d.index, id, v: version(parsed.note) });
      }
      // Held for another reason than a file broken by hand (a case twin beside it, over a lowered
      // memory.maxNotes): its version is still on the device, and comes back once it loads (seed
      // 42155: a case twin's synced note, deleted elsewhere, uploaded again after the wipe).
      for (const h of d.user.store!.held()) {
        if (this.brokenOn(d.index).has(h.id)) continue;
        const text = await fs.readFile(h.path, 'utf8').catch(() => null);
        const parsed = text === null ? null : parseNote(text);
        if (parsed?.ok) comeBack.push({ device: d.index, id: h.id, v: version(parsed.note) });
      }
    }
    for (const c of comeBack) this.ledger.mayReturn(c.device, c.id, c.v, by);
    await this.cluster.replaceData(this.user, restored?.dir ?? null);
  }

  /** Faults off, every file fixed, sync on, conflicts resolved; rounds until nothing moves. */
  async quiesce(): Promise<void> {
    this.faultsOn = false;
    this.log.push('quiescence');
    for (let i = 0; i < this.cluster.size; i++) await this.cluster.revive(i);
    for (const d of this.devices)
      for (const id of [...this.brokenOn(d.index).keys()]) await this.fixFile(d, id);
    for (const d of this.devices) for (const twin of [...this.twinsOn(d.index)]) await this.rename(d, twin);
    for (const di of [...this.lowered]) await this.setMaxNotes(di, null);
    for (let i = 0; i < this.devices.length; i++) {
      if (!this.enabled[i]) await this.devices[i]!.engine.setEnabled([this.devices[i]!.svc], true);
      this.enabled[i] = true;
    }
    let stable = false;
    for (let pass = 0; pass < 12 && !stable; pass++) {
      for (let i = 0; i < this.devices.length; i++) {
        await this.syncRound(i, false);
        if (this.devices[i]!.svc.pendingDeletes) {
          await this.answerFailSafe(i);
          await this.syncRound(i, false);
        }
        await this.resolveOne(i, true);
      }
      stable = true;
      for (let i = 0; i < this.devices.length; i++) {
        await this.syncRound(i, false);
        const d = this.devices[i]!;
        const clashes = (await this.localOnly(d)).filter((n) => n.reason === 'case_clash');
        for (const n of clashes) await this.rename(d, n.id);
        if ((await d.svc.conflicts()).length > 0 || d.svc.pendingDeletes || d.svc.error || clashes.length > 0)
          stable = false;
      }
      if (stable) {
        // Stable means a further round everywhere runs to its end and changes nothing: a round that
        // ended early (offline, a transient error) says nothing, and a conflict raised again is not
        // stable (seed 20077 passed its check on such a round).
        for (let i = 0; i < this.devices.length; i++) {
          const before = this.snapshotOf(this.devices[i]!);
          await this.syncRound(i, false);
          const d = this.devices[i]!;
          if (
            JSON.stringify([...before]) !== JSON.stringify([...this.snapshotOf(d)]) ||
            d.svc.lastResult?.outcome !== 'ok' ||
            (await d.svc.conflicts()).length > 0
          )
            stable = false;
        }
      }
    }
    if (!stable)
      this.fail(
        `no quiescence after 12 passes: ${this.devices.map((d) => `${d.index}: ${d.svc.error?.message ?? ''} conflicts=${d.svc.lastRound?.conflicts.join(',')}`).join('; ')}`,
      );
  }

  /** Convergence with the server's own store, then the ledger's exact check. */
  async check(): Promise<number> {
    const server = await (this.account?.read(this.cluster, this.user) ??
      this.cluster.read(this.user, { kind: 'user' }));
    const cloud = JSON.stringify([...server.notes].map(([id, n]) => [id, n.hash]).sort());
    for (const d of this.devices) {
      const mine = JSON.stringify([...this.snapshotOf(d)].sort());
      if (mine !== cloud)
        this.fail(
          `device ${d.index} does not hold what the server's store holds:\n    store: ${cloud}\n    device: ${mine}`,
        );
      const held = d.user.store!.held();
      if (held.length > 0)
        this.fail(`device ${d.index} still holds files back: ${held.map((h) => h.id).join(', ')}`);
      const localOnly = await this.localOnly(d);
      if (localOnly.length > 0)
        this.fail(
          `device ${d.index}: notes stay local: ${localOnly.map((n) => `${n.id} (${n.reason})`).join(', ')}`,
        );
    }
    const live = new Map<string, Version>();
    for (const [id, n] of server.notes) {
      const parsed = parseNote(n.content);
      if (!parsed.ok) this.fail(`the store's "${id}" cannot be parsed`);
      live.set(id, version(parsed.note));
    }
    const backups: Array<{ where: string; markers: Set<string>; id: string }> = [];
    for (const d of this.devices)
      for (const entry of await d.user.backups.list(1_000_000)) {
        const parsed = parseNote((await d.user.backups.get(entry.id)).content);
        if (parsed.ok)
          backups.push({
            where: `a backup on device ${d.index}`,
            id: entry.noteId,
            markers: markersOf(version(parsed.note)),
          });
      }
    const elsewhere = (marker: string): string | null => {
      for (const [id, v] of live) if (markersOf(v).has(marker)) return `the note "${id}"`;
      for (const b of backups) if (b.markers.has(marker) || b.id === marker) return b.where;
      return null;
    };
    const failures = this.ledger.check(live, elsewhere);
    if (failures.length > 0)
      this.fail(`${failures.length} oracle failure(s):\n    ${failures.slice(0, 12).join('\n    ')}`);
    return server.notes.size;
  }

  private async localOnly(d: SimDevice): Promise<LocalOnlyNote[]> {
    return (await d.svc.state()).report?.localOnly ?? [];
  }

  async close(): Promise<void> {
    for (const d of this.devices) await stopDevice(d);
    await this.proxy.close();
    await this.cluster.close();
    await fs.rm(this.root, { recursive: true, force: true });
  }
}

/**
 * Runs a person's write; false when the store refuses it as it would refuse the person: a folder
 * over a lowered memory.maxNotes takes no new note, and a case twin cannot be written beside its
 * twin. Nothing is written then.
 */
async function refused(write: () => Promise<unknown>, log: string[]): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (err instanceof AppError && (err.code === 'limit_exceeded' || err.code === 'conflict')) {
      log.push(`  refused: ${err.message.slice(0, 100)}`);
      return false;
    }
    throw err;
  }
}

/**
 * Note `id` here, by its exact id: the store finds notes ignoring case (macOS and Windows cannot
 * hold two of them), so a case twin is another note, not this one (seed 33700: a resolution that
 * left "N-2-2" deleted here was recorded as keeping "n-2-2"'s content under "N-2-2").
 */
function exactly(d: SimDevice, id: string): StoredNote | undefined {
  const note = d.user.store!.get(id);
  return note?.id === id ? note : undefined;
}

const ID_POOL = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

export async function runSimulation(
  seed: number,
  storage: ClusterStorage,
  opts: SimOptions = {},
): Promise<SimResult> {
  const sim = new Simulation(seed, storage, opts);
  await sim.start();
  try {
    for (let step = 0; step < (opts.steps ?? 30); step++) {
      await sim.step(step);
      await sim.keysStep(step);
      await sim.lossStep(step);
    }
    await sim.quiesce();
    const notes = await sim.check();
    if (TRACE) console.log(`seed ${seed} passed:\n    ${sim.log.join('\n    ')}`);
    return { seed, ...sim.stats, notes, markers: sim.ledger.markers };
  } catch (err) {
    // Anything the engine throws at a person's step is a failure of this seed, replayable like
    // an oracle's; it must not end a soak's other seeds.
    if (err instanceof SimulationFailure) throw err;
    throw new SimulationFailure(
      seed,
      `unexpected error: ${(err as Error).stack ?? String(err)}`,
      sim.log,
      opts.serverLoss,
    );
  } finally {
    await sim.close().catch(() => {});
  }
}
