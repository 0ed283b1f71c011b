import { describe, expect, it } from 'vitest';
import { secretProtection } from '../../electron/main/secret-protection.js';

describe('secrets at rest', () => {
  it('Linux without a keyring (basic_text) keeps secrets in memory only, and says why', () => {
    const p = secretProtection({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'basic_text' });
    expect(p).toMatchObject({ atRest: 'memory', why: expect.stringMatching(/No keyring .*basic_text/) });
    expect(
      secretProtection({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'unknown' }).atRest,
    ).toBe('memory');
  });

  it('a keyring, the macOS keychain or Windows DPAPI keep them on disk encrypted', () => {
    expect(
      secretProtection({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'gnome_libsecret' }),
    ).toEqual({ atRest: 'keychain' });
    expect(secretProtection({ platform: 'darwin', encryptionAvailable: true })).toEqual({
      atRest: 'keychain',
    });
    expect(secretProtection({ platform: 'win32', encryptionAvailable: true })).toEqual({
      atRest: 'keychain',
    });
    expect(secretProtection({ platform: 'darwin', encryptionAvailable: false }).atRest).toBe('memory');
  });
});
