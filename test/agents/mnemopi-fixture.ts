import fs from 'node:fs/promises';
import path from 'node:path';
import initSqlJs from 'sql.js';

/**
 * Builds a Mnemopi bank database from the schema documented in docs/agents.md (the subset of
 * oh-my-pi's working_memory table that the import reads).
 */
export const MNEMOPI_SCHEMA = `
CREATE TABLE working_memory (
  id TEXT PRIMARY KEY,
  content TEXT NOT NULL,
  importance REAL,
  source TEXT,
  memory_type TEXT,
  veracity TEXT,
  metadata_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT
);`;

export interface FixtureRow {
  id: string;
  content: string;
  importance?: number | null;
  source?: string | null;
  memory_type?: string | null;
  veracity?: string | null;
  metadata_json?: string | null;
  created_at: string | number;
  updated_at?: string | null;
}

export async function writeMnemopiDb(
  file: string,
  rows: FixtureRow[],
  schema = MNEMOPI_SCHEMA,
): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.exec(schema);
  for (const r of rows) {
    db.run(
      'INSERT INTO working_memory (id, content, importance, source, memory_type, veracity, metadata_json, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)',
      [
        r.id,
        r.content,
        r.importance ?? null,
        r.source ?? null,
        r.memory_type ?? null,
        r.veracity ?? null,
        r.metadata_json ?? null,
        r.created_at,
        r.updated_at ?? null,
      ],
    );
  }
  const bytes = db.export();
  db.close();
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, bytes);
}
