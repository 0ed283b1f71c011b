/**
 * Whether secrets (the sync token, the model API key) may be written to disk. safeStorage encrypts
 * with the OS keychain on macOS and Windows; on Linux it needs a keyring (Secret Service or
 * KWallet). Without one it reports the `basic_text` backend: "encryption" with a key built into
 * Chromium, which anyone who can read the file can undo. Then secrets are kept in memory for this
 * run only, and the person is told (docs/security.md). Plain Node, so it is tested without Electron.
 */
export type SecretProtection = { atRest: 'keychain' } | { atRest: 'memory'; why: string };

export function secretProtection(p: {
  platform: NodeJS.Platform;
  encryptionAvailable: boolean;
  /** safeStorage.getSelectedStorageBackend(), Linux only. */
  linuxBackend?: string;
}): SecretProtection {
  if (!p.encryptionAvailable)
    return {
      atRest: 'memory',
      why: 'This system offers no secure storage for secrets (no keychain or keyring).',
    };
  if (p.platform === 'linux' && (p.linuxBackend === 'basic_text' || p.linuxBackend === 'unknown'))
    return {
      atRest: 'memory',
      why: `No keyring was found (Secret Service or KWallet; safeStorage backend "${p.linuxBackend}"), so secrets could only be stored unencrypted.`,
    };
  return { atRest: 'keychain' };
}
