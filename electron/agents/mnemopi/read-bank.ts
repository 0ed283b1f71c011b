import fs from 'node:fs/promises';
import initSqlJs, { type SqlJsStatic } from 'sql.js';

/**
 * Reads an oh-my-pi Mnemopi bank database read-only: the file's bytes are loaded into sql.js (WASM,
 * no native build) in memory and never written back. The table read is documented in
 * docs/agents.md ("Mnemopi import"):
 *
 *   working_memory(id, content TEXT NOT NULL, importance REAL, source TEXT, memory_type TEXT,
 *                  veracity TEXT, metadata_json TEXT, created_at, updated_at)
 *
 * Only `content` is required; the other columns are used when present.
 */

export interface MnemopiRow {
  rowId: string;
  content: string;
  importance: number | null;
  source: string | null;
  memoryType: string | null;
  veracity: string | null;
  metadata: Record<string, unknown> | null;
  /** Epoch milliseconds, or null when absent/unparseable. */
  createdAt: number | null;
  updatedAt: number | null;
}

export interface BankLimits {
  /** The database file; larger ones are skipped before being read. */
  maxFileBytes: number;
  /** Rows read from working_memory; the rest are reported, not read. */
  maxRows: number;
}

export const BANK_LIMITS: BankLimits = { maxFileBytes: 256 * 1024 * 1024, maxRows: 50_000 };

export type ReadBankResult =
  { ok: true; rows: MnemopiRow[]; problems: string[] } | { ok: false; reason: string };

const SQLITE_MAGIC = 'SQLite format 3\0';
const OPTIONAL_COLUMNS = [
  'id',
  'importance',
  'source',
  'memory_type',
  'veracity',
  'metadata_json',
  'created_at',
  'updated_at',
] as const;

let sqlJs: Promise<SqlJsStatic> | null = null;
function loadSqlJs(): Promise<SqlJsStatic> {
  sqlJs ??= initSqlJs();
  return sqlJs;
}

/** ISO strings, epoch seconds and epoch milliseconds (SQLite stores any of them). */
export function toEpochMs(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value))
    return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  if (typeof value === 'string' && value.trim()) {
    const text = value.trim();
    if (/^\d+(\.\d+)?$/.test(text)) return toEpochMs(Number(text));
    // SQLite's CURRENT_TIMESTAMP is "YYYY-MM-DD HH:MM:SS" in UTC.
    const iso =
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(text) && !/[zZ]|[+-]\d{2}:?\d{2}$/.test(text)
        ? `${text.replace(' ', 'T')}Z`
        : text;
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return null;
  return String(value);
}

/**
 * Runs in an import worker (../import-worker): sql.js is synchronous, so only the worker's budget can
 * stop a query. Only a real `working_memory` table is read (a VIEW can be made to recurse forever),
 * at most `limits.maxRows` rows of a file of at most `limits.maxFileBytes`.
 */
export async function readMnemopiBank(
  file: string,
  limits: BankLimits = BANK_LIMITS,
): Promise<ReadBankResult> {
  let bytes: Buffer;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return { ok: false, reason: `${file} is not a file` };
    if (stat.size > limits.maxFileBytes)
      return {
        ok: false,
        reason: `too large: ${stat.size} bytes, over the ${limits.maxFileBytes}-byte limit for a bank`,
      };
    bytes = await fs.readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: `missing: ${file} does not exist` };
    return { ok: false, reason: `unreadable: ${(err as Error).message}` };
  }
  if (bytes.length < 100 || bytes.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) {
    return { ok: false, reason: `corrupt: ${file} is not a SQLite database` };
  }
  const problems: string[] = [];
  try {
    const wal = await fs.stat(`${file}-wal`);
    if (wal.size > 0) {
      problems.push(
        `${file}-wal holds changes not yet checkpointed into the database; they are not imported (close oh-my-pi, or run "PRAGMA wal_checkpoint", then import again)`,
      );
    }
  } catch {
    // no WAL file: nothing pending
  }
  const SQL = await loadSqlJs();
  let db: InstanceType<SqlJsStatic['Database']> | null = null;
  try {
    db = new SQL.Database(new Uint8Array(bytes));
    const kind = db.exec("SELECT type FROM sqlite_master WHERE name = 'working_memory' COLLATE NOCASE");
    const type = kind[0]?.values[0]?.[0];
    if (type === undefined) return { ok: false, reason: 'no working_memory table: not a Mnemopi bank' };
    if (type !== 'table')
      return {
        ok: false,
        reason: `working_memory is a ${String(type)}, not a table: refused (only real tables are read)`,
      };
    const info = db.exec('PRAGMA table_info(working_memory)');
    const columns = new Set((info[0]?.values ?? []).map((r) => String(r[1])));
    if (columns.size === 0) return { ok: false, reason: 'no working_memory table: not a Mnemopi bank' };
    if (!columns.has('content'))
      return { ok: false, reason: 'the working_memory table has no content column' };
    const select = ['rowid AS _rowid', 'content', ...OPTIONAL_COLUMNS.filter((c) => columns.has(c))];
    const result = db.exec(
      `SELECT ${select.join(', ')} FROM working_memory ORDER BY rowid LIMIT ${Math.floor(limits.maxRows) + 1}`,
    );
    const names = result[0]?.columns ?? [];
    const rows: MnemopiRow[] = [];
    const found = result[0]?.values ?? [];
    if (found.length > limits.maxRows) {
      found.length = limits.maxRows;
      problems.push(`more than ${limits.maxRows} rows: only the first ${limits.maxRows} were read`);
    }
    for (const values of found) {
      const rec: Record<string, unknown> = {};
      names.forEach((name, i) => (rec[name] = values[i]));
      const content = asText(rec.content);
      const rowId = asText(rec.id) ?? String(rec._rowid);
      if (content === null) {
        problems.push(`row ${rowId}: content is not text; skipped`);
        continue;
      }
      let metadata: Record<string, unknown> | null = null;
      const metaText = asText(rec.metadata_json);
      if (metaText) {
        try {
          const parsed: unknown = JSON.parse(metaText);
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            metadata = parsed as Record<string, unknown>;
          else problems.push(`row ${rowId}: metadata_json is not an object; ignored`);
        } catch {
          problems.push(`row ${rowId}: metadata_json is not valid JSON; ignored`);
        }
      }
      const importance =
        rec.importance === null || rec.importance === undefined ? null : Number(rec.importance);
      rows.push({
        rowId,
        content,
        importance: importance !== null && Number.isFinite(importance) ? importance : null,
        source: asText(rec.source),
        memoryType: asText(rec.memory_type),
        veracity: asText(rec.veracity),
        metadata,
        createdAt: toEpochMs(rec.created_at),
        updatedAt: toEpochMs(rec.updated_at),
      });
    }
    return { ok: true, rows, problems };
  } catch (err) {
    return { ok: false, reason: `corrupt: ${(err as Error).message}` };
  } finally {
    db?.close();
  }
}
