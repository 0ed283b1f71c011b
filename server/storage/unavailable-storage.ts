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
  private fail(): never {
    throw new StorageUnavailableError(this.reason, this.reason);
  }
  async check(): Promise<void> {
    this.fail();
  }
  async get(): Promise<never> {
    this.fail();
  }
  async getIfChanged(): Promise<never> {
    this.fail();
  }
  async put(): Promise<never> {
    this.fail();
  }
  async delete(): Promise<never> {
    this.fail();
  }
  async list(): Promise<never> {
    this.fail();
  }
  async deletePrefix(): Promise<never> {
    this.fail();
  }
}
