import { z } from 'zod';
import { userSegment } from '../storage-keys.js';
import { PreconditionFailedError, type StorageAdapter } from '../storage/storage.js';
import { hashPassword, passwordProblem, verifyPassword } from './password.js';

/**
 * The built-in provider's accounts, one object each under `auth/accounts/` in the server's own
 * storage (so they work on the filesystem and on S3 alike). The account name is the token's
 * `sub`, so it is also where the account's notes live; a disabled account keeps its name and
 * its notes, and is refused at sign-in, at refresh and on every sync request.
 */
export const ACCOUNT_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const AccountRecordSchema = z.object({
  name: z.string(),
  passwordHash: z.string(),
  plan: z.enum(['free', 'paid']),
  createdAt: z.number(),
  disabledAt: z.number().nullable(),
});
export type AccountRecord = z.infer<typeof AccountRecordSchema>;

export class AccountError extends Error {
  override readonly name = 'AccountError';
}

export function accountKey(name: string): string {
  return `auth/accounts/${userSegment(name)}.json`;
}

export class AccountStore {
  constructor(
    private readonly storage: StorageAdapter,
    private readonly now: () => number = Date.now,
  ) {}

  async add(name: string, password: string, plan: 'free' | 'paid' = 'free'): Promise<AccountRecord> {
    if (!ACCOUNT_NAME_PATTERN.test(name))
      throw new AccountError(
        `"${name}" is not a usable account name: 1–64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit`,
      );
    const problem = passwordProblem(password);
    if (problem) throw new AccountError(problem);
    const record: AccountRecord = {
      name,
      passwordHash: await hashPassword(password),
      plan,
      createdAt: this.now(),
      disabledAt: null,
    };
    try {
      await this.storage.put(accountKey(name), JSON.stringify(record), { ifNoneMatch: '*' });
    } catch (err) {
      if (err instanceof PreconditionFailedError)
        throw new AccountError(`there is already an account named "${name}"`);
      throw err;
    }
    return record;
  }

  async get(name: string): Promise<AccountRecord | null> {
    if (!ACCOUNT_NAME_PATTERN.test(name)) return null;
    const stored = await this.storage.get(accountKey(name));
    return stored ? AccountRecordSchema.parse(JSON.parse(stored.body.toString('utf8'))) : null;
  }

  async list(): Promise<AccountRecord[]> {
    const keys = await this.storage.list('auth/accounts/');
    const records = await Promise.all(
      keys.map(async (key) => {
        const stored = await this.storage.get(key);
        return stored ? AccountRecordSchema.parse(JSON.parse(stored.body.toString('utf8'))) : null;
      }),
    );
    return records.filter((r): r is AccountRecord => r !== null).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Disabling twice keeps the first date. */
  async disable(name: string): Promise<AccountRecord> {
    for (;;) {
      const stored = await this.storage.get(accountKey(name));
      if (!stored) throw new AccountError(`there is no account named "${name}"`);
      const record = AccountRecordSchema.parse(JSON.parse(stored.body.toString('utf8')));
      if (record.disabledAt !== null) return record;
      const next = { ...record, disabledAt: this.now() };
      try {
        await this.storage.put(accountKey(name), JSON.stringify(next), { ifMatch: stored.etag });
        return next;
      } catch (err) {
        if (!(err instanceof PreconditionFailedError)) throw err;
      }
    }
  }

  /** The account, when the name and password match an account that is not disabled. */
  async authenticate(
    name: string,
    password: string,
  ): Promise<{ ok: true; account: AccountRecord } | { ok: false; reason: 'wrong' | 'disabled' }> {
    const record = await this.get(name.trim().toLowerCase());
    // Hash even when there is no such account, so the answer takes as long either way.
    const matches = await verifyPassword(password, record?.passwordHash ?? DUMMY_HASH);
    if (!record || !matches) return { ok: false, reason: 'wrong' };
    if (record.disabledAt !== null) return { ok: false, reason: 'disabled' };
    return { ok: true, account: record };
  }
}

/** A real scrypt hash of a random password nobody knows (same parameters as every account). */
const DUMMY_HASH = 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA$Sk9ZK0aX3hO6E5b8V2m3m7b0aH0cCt2g8d2hQm9y1xQ';
