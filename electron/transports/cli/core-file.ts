/**
 * How the CLI's one CommonJS file is named: this prefix, the first 16 hex digits of its content's
 * SHA-256, `.cjs` (written by scripts/build-cli.ts, loaded by load-cli-bundled.ts, whose code
 * caches carry the same prefix and hash).
 */
export const CORE_PREFIX = 'memdesk-core-';

export const coreFileName = (contentHash: string): string => `${CORE_PREFIX}${contentHash.slice(0, 16)}.cjs`;
