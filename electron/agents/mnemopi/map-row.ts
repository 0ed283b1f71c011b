import { normalizeTags } from '../../../shared/tags.js';
import { deriveSummary, deriveType, hashtagsOf, retainBody, type RetainDraft } from '../retain/derive.js';
import type { MnemopiRow } from './read-bank.js';

/**
 * One Mnemopi working-memory row → the parts of a note (documented in docs/agents.md):
 *   summary    derived from content like retain does (first sentence of the first line, ≤100 chars)
 *   type       from the same simple cues as retain, else untyped
 *   tags       mnemopi, memory-type:<memory_type>, source:<source>, importance:<importance>,
 *              plus #hashtags in the content
 *   body       the content; metadata_json.context, when present, as the last line "Context: …"
 *   extra      frontmatter key `mnemopi`: {bank, row, veracity, metadata} — everything else kept losslessly
 *   createdAt  created_at (ISO, "YYYY-MM-DD HH:MM:SS" UTC, epoch s or ms), else the import time
 *   updatedAt  updated_at, else createdAt
 */
export interface MappedRow {
  draft: RetainDraft;
  extra: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

function tagValue(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s,]+/g, '-');
}

export function mapMnemopiRow(row: MnemopiRow, bank: string, now: number): MappedRow | { refused: string } {
  if (!row.content.trim()) return { refused: `row ${row.rowId}: empty content` };
  const context = typeof row.metadata?.context === 'string' ? row.metadata.context : undefined;
  const tags = ['mnemopi'];
  if (row.memoryType) tags.push(`memory-type:${tagValue(row.memoryType)}`);
  if (row.source) tags.push(`source:${tagValue(row.source)}`);
  if (row.importance !== null) tags.push(`importance:${Number(row.importance.toFixed(2))}`);
  const type = deriveType(row.content);
  const createdAt = row.createdAt ?? now;
  return {
    draft: {
      summary: deriveSummary(row.content),
      ...(type ? { type } : {}),
      tags: normalizeTags([...tags, ...hashtagsOf(row.content)]),
      body: retainBody(row.content, context),
    },
    extra: {
      mnemopi: {
        bank,
        row: row.rowId,
        ...(row.veracity !== null ? { veracity: row.veracity } : {}),
        ...(row.metadata ? { metadata: row.metadata } : {}),
      },
    },
    createdAt,
    updatedAt: row.updatedAt ?? createdAt,
  };
}
