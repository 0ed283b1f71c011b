import fs from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { legacyContentHash } from '../../../shared/content-hash.js';
import type { MnemopiBankReportSchema } from '../../../shared/api/agents.js';
import type { Scope } from '../../../shared/note.js';
import { AppError } from '../../../shared/errors.js';
import { credentialsMessage, findFieldCredentials } from '../../memory/credentials.js';
import type { MemoryCore, NoteStore } from '../../memory/types.js';
import { runImportTask, type WorkerRunOptions } from '../import-worker/run-in-worker.js';
import { freeNoteIdFor } from '../note-id-for.js';
import { mapMnemopiRow } from './map-row.js';
import { BANK_LIMITS, type BankLimits, type ReadBankResult } from './read-bank.js';
import { missingOr } from '../../memory/unexpected-error.js';

export type MnemopiBankReport = z.infer<typeof MnemopiBankReportSchema>;

/** At most this many sibling bank databases are scanned under `banks/` (as oh-my-pi does). */
export const MAX_SIBLING_BANKS = 64;
export const MAIN_DB_NAME = 'mnemopi.db';

interface BankCandidate {
  bank: string;
  file: string;
}

/**
 * The databases to import. A file is one bank (`default`). A data directory holds `mnemopi.db`
 * (bank `default`, when present) and sibling banks under `banks/<name>/` — each a directory with
 * `mnemopi.db` (or its only `*.db` file), or a `banks/<name>.db` file — sorted by name, at most 64;
 * the rest are reported as skipped.
 */
async function candidates(input: string): Promise<{ found: BankCandidate[]; overflow: BankCandidate[] }> {
  const stat = await fs.stat(input).catch(() => null); // not there: reading it says why (missing/unreadable)
  if (!stat || stat.isFile()) return { found: [{ bank: 'default', file: input }], overflow: [] };
  const found: BankCandidate[] = [];
  const main = path.join(input, MAIN_DB_NAME);
  if (await fs.stat(main).catch(missingOr(null, 'mnemopi: stat')))
    found.push({ bank: 'default', file: main });
  const banksDir = path.join(input, 'banks');
  const entries = await fs.readdir(banksDir, { withFileTypes: true }).catch(missingOr([], 'mnemopi: banks'));
  const siblings: BankCandidate[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(banksDir, entry.name);
    if (entry.isDirectory()) {
      const inner = await fs.readdir(full).catch(missingOr([] as string[], 'mnemopi: bank dir'));
      const dbs = inner.filter((n) => n.endsWith('.db'));
      const file = inner.includes(MAIN_DB_NAME) ? MAIN_DB_NAME : dbs.length === 1 ? dbs[0] : undefined;
      // A bank directory without a database is still reported (as missing), never silently dropped.
      siblings.push({ bank: entry.name, file: path.join(full, file ?? MAIN_DB_NAME) });
    } else if (entry.isFile() && entry.name.endsWith('.db')) {
      siblings.push({ bank: entry.name.slice(0, -3), file: full });
    }
  }
  found.push(...siblings.slice(0, MAX_SIBLING_BANKS));
  return { found, overflow: siblings.slice(MAX_SIBLING_BANKS) };
}

export interface MnemopiImportOptions extends WorkerRunOptions {
  limits?: BankLimits;
}

/** Reads every bank in one worker (one budget for the whole import); a stopped read skips them all. */
async function readBanks(files: string[], opts: MnemopiImportOptions): Promise<ReadBankResult[]> {
  try {
    return await runImportTask({ kind: 'banks', files, limits: opts.limits ?? BANK_LIMITS }, opts);
  } catch (err) {
    return files.map(() => ({ ok: false, reason: `not read: ${(err as Error).message}` }));
  }
}

async function importBank(
  store: NoteStore,
  candidate: BankCandidate,
  read: ReadBankResult,
  now: number,
  opts: MnemopiImportOptions,
): Promise<MnemopiBankReport> {
  const base = { path: path.resolve(candidate.file), bank: candidate.bank };
  if (!read.ok)
    return {
      ...base,
      status: 'skipped',
      reason: read.reason,
      imported: 0,
      skippedRows: 0,
      problems: [],
      rows: [],
    };
  const problems = [...read.problems];
  const rows: MnemopiBankReport['rows'] = [];
  const skip = (row: string, reason: string): void => {
    rows.push({ row, status: 'skipped', reason });
  };
  // Identical content whatever the frontmatter keys (the bank name lives there): the hash without them.
  const present = new Set(store.list().map((n) => legacyContentHash(n)));
  for (const [i, row] of read.rows.entries()) {
    if (opts.signal?.aborted) {
      for (const rest of read.rows.slice(i)) skip(rest.rowId, 'cancelled: not imported');
      problems.push(`cancelled: row ${row.rowId} and the rest were not imported`);
      break;
    }
    const mapped = mapMnemopiRow(row, candidate.bank, now);
    if ('refused' in mapped) {
      problems.push(mapped.refused);
      skip(row.rowId, mapped.refused);
      continue;
    }
    const hash = legacyContentHash(mapped.draft);
    if (present.has(hash)) {
      skip(row.rowId, 'already present (identical content)');
      continue;
    }
    // Everything that reaches the file is checked: content, and metadata_json, source and
    // memory_type, which land in the frontmatter and the tags.
    const credentials = await findFieldCredentials([
      ['the summary', mapped.draft.summary],
      ['the body', mapped.draft.body],
      ['the tags', mapped.draft.tags.join(' ')],
      ['the metadata', JSON.stringify(mapped.extra)],
    ]);
    if (credentials.length > 0) {
      const reason = `row ${row.rowId}: ${credentialsMessage(credentials)}; not imported`;
      problems.push(reason);
      skip(row.rowId, reason);
      continue;
    }
    if (store.isFull()) {
      problems.push(
        `the ${store.scope} scope is full (memory.maxNotes); row ${row.rowId} and the rest were not imported`,
      );
      for (const rest of read.rows.slice(i))
        skip(rest.rowId, `the ${store.scope} scope is full (memory.maxNotes)`);
      break;
    }
    try {
      const id = freeNoteIdFor(mapped.draft.summary, mapped.draft.body, (c) => store.get(c) !== undefined);
      await store.write(
        {
          id,
          ...mapped.draft,
          createdAt: mapped.createdAt,
          updatedAt: mapped.updatedAt,
          extra: mapped.extra,
        },
        { expectedHash: null },
      );
      present.add(hash);
      rows.push({ row: row.rowId, status: 'imported', id });
    } catch (err) {
      problems.push(`row ${row.rowId}: ${(err as Error).message}`);
      skip(row.rowId, (err as Error).message);
    }
  }
  const imported = rows.filter((r) => r.status === 'imported').length;
  return { ...base, status: 'imported', imported, skippedRows: rows.length - imported, problems, rows };
}

/**
 * Imports Mnemopi working-memory rows as notes into a scope. Read-only on the source. Every bank is
 * reported; a missing, unreadable or corrupt database is skipped with its reason, never fatal.
 * Rows whose note content is already present (a second import) are counted as skipped.
 */
export async function importMnemopi(
  core: MemoryCore,
  input: { path: string; scope: Scope },
  opts: MnemopiImportOptions = {},
): Promise<{ scope: Scope; banks: MnemopiBankReport[]; imported: number }> {
  const store = core.store(input.scope);
  if (!store)
    throw new AppError(
      'unavailable',
      `the ${input.scope} notes directory is not available${input.scope === 'project' ? ': open or register a project first' : ''}`,
    );
  const { found, overflow } = await candidates(path.resolve(input.path));
  const banks: MnemopiBankReport[] = [];
  const reads =
    found.length > 0
      ? await readBanks(
          found.map((c) => c.file),
          opts,
        )
      : [];
  for (const [i, candidate] of found.entries())
    banks.push(await importBank(store, candidate, reads[i]!, core.now(), opts));
  for (const extra of overflow) {
    banks.push({
      path: path.resolve(extra.file),
      bank: extra.bank,
      status: 'skipped',
      reason: `more than ${MAX_SIBLING_BANKS} banks under banks/; this one was not scanned`,
      imported: 0,
      skippedRows: 0,
      problems: [],
      rows: [],
    });
  }
  if (banks.length === 0) {
    banks.push({
      path: path.resolve(input.path),
      bank: 'default',
      status: 'skipped',
      reason: `no ${MAIN_DB_NAME} and no banks/ found in this directory`,
      imported: 0,
      skippedRows: 0,
      problems: [],
      rows: [],
    });
  }
  return { scope: input.scope, banks, imported: banks.reduce((sum, b) => sum + b.imported, 0) };
}
