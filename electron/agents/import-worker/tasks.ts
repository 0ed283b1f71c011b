import type { ArchiveLimits, ReadArchiveResult } from '../archive/zip-format.js';
import type { BankLimits, ReadBankResult } from '../mnemopi/read-bank.js';

/** What an import worker is asked to read (import-worker.ts) and what it answers. */
export type ImportTask =
  | { kind: 'zip'; file: string; limits: ArchiveLimits }
  | { kind: 'banks'; files: string[]; limits: BankLimits };

export type ImportTaskResult<T extends ImportTask> = T extends { kind: 'zip' }
  ? ReadArchiveResult
  : ReadBankResult[];
