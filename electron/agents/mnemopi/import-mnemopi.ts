import fs from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { contentHash } from '../../../shared/content-hash.js';
import type { MnemopiBankReportSchema } from '../../../shared/api/agents.js';
import type { Scope } from '../../../shared/note.js';
import { AppError } from '../../../shared/errors.js';
import { findCredential } from '../../memory/credentials.js';
import type { MemoryCore, NoteStore } from '../../memory/types.js';
import { freeNoteIdFor } from '../note-id-for.js';
import { mapMnemopiRow } from './map-row.js';
import { readMnemopiBank } from './read-bank.js';

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
  const stat = await fs.stat(input).catch(() => null);
  if (!stat || stat.isFile()) return { found: [{ bank: 'default', file: input }], overflow: [] };
  const found: BankCandidate[] = [];
  const main = path.join(input, MAIN_DB_NAME);
  if (await fs.stat(main).catch(() => null)) found.push({ bank: 'default', file: main });
  const banksDir = path.join(input, 'banks');
  const entries = await fs.readdir(banksDir, { withFileTypes: true }).catch(() => []);
  const siblings: BankCandidate[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(banksDir, entry.name);
    if (entry.isDirectory()) {
      const inner = await fs.readdir(full).catch(() => [] as string[]);
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

async function importBank(
  store: NoteStore,
  candidate: BankCandidate,
  now: number,
): Promise<MnemopiBankReport> {
  const base = { path: path.resolve(candidate.file), bank: candidate.bank };
  const read = await readMnemopiBank(candidate.file);
  if (!read.ok)
    return { ...base, status: 'skipped', reason: read.reason, imported: 0, skippedRows: 0, problems: [] };
  const problems = [...read.problems];
  const present = new Set(store.list().map((n) => n.hash));
  let imported = 0;
  let skippedRows = 0;
  for (const row of read.rows) {
    const mapped = mapMnemopiRow(row, candidate.bank, now);
    if ('refused' in mapped) {
      problems.push(mapped.refused);
      skippedRows++;
      continue;
    }
    const hash = contentHash(mapped.draft);
    if (present.has(hash)) {
      skippedRows++;
      continue;
    }
    const credential = findCredential(mapped.draft.body);
    if (credential) {
      problems.push(
        `row ${row.rowId}: looks like it contains ${credential.kind}; not imported (notes are plain files that may sync)`,
      );
      skippedRows++;
      continue;
    }
    if (store.isFull()) {
      problems.push(
        `the ${store.scope} scope is full (memory.maxNotes); row ${row.rowId} and the rest were not imported`,
      );
      skippedRows += read.rows.length - imported - skippedRows;
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
      imported++;
    } catch (err) {
      problems.push(`row ${row.rowId}: ${(err as Error).message}`);
      skippedRows++;
    }
  }
  return { ...base, status: 'imported', imported, skippedRows, problems };
}

/**
 * Imports Mnemopi working-memory rows as notes into a scope. Read-only on the source. Every bank is
 * reported; a missing, unreadable or corrupt database is skipped with its reason, never fatal.
 * Rows whose note content is already present (a second import) are counted as skipped.
 */
export async function importMnemopi(
  core: MemoryCore,
  input: { path: string; scope: Scope },
): Promise<{ scope: Scope; banks: MnemopiBankReport[]; imported: number }> {
  const store = core.store(input.scope);
  if (!store)
    throw new AppError(
      'unavailable',
      `the ${input.scope} notes directory is not available${input.scope === 'project' ? ': open or register a project first' : ''}`,
    );
  const { found, overflow } = await candidates(path.resolve(input.path));
  const banks: MnemopiBankReport[] = [];
  for (const candidate of found) banks.push(await importBank(store, candidate, core.now()));
  for (const extra of overflow) {
    banks.push({
      path: path.resolve(extra.file),
      bank: extra.bank,
      status: 'skipped',
      reason: `more than ${MAX_SIBLING_BANKS} banks under banks/; this one was not scanned`,
      imported: 0,
      skippedRows: 0,
      problems: [],
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
    });
  }
  return { scope: input.scope, banks, imported: banks.reduce((sum, b) => sum + b.imported, 0) };
}
