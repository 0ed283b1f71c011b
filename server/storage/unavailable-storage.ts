import { StorageUnavailableError, type StorageAdapter } from './storage.js';

/**
 * Stands in when storage is missing or misconfigured: every call fails with the reason, which names
 * the missing setting (never a path), so callers are told it too.
 */
export class UnavailableStorage implements StorageAdapter {
  readonly kind = 'unavailable';
  constructor(readonly reason: string) {}
  describe(): string {
    return `unavailable (${this.reason})`;
  }
  private readonly fail = (): Promise<never> =>
    Promise.reject(new StorageUnavailableError(this.reason, this.reason));
  readonly check = this.fail;
  readonly get = this.fail;
  readonly getIfChanged = this.fail;
  readonly put = this.fail;
  readonly delete = this.fail;
  readonly list = this.fail;
  readonly deletePrefix = this.fail;
}
