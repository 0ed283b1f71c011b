import { describe, expect, it } from 'vitest';
import { mayContainCredentials } from '../../electron/memory/credential-gate.js';
import { findCredentials } from '../../electron/memory/credentials.js';
import { nonSecretSamples, secretSamples } from './credential-corpus.js';

describe('the credential gate in front of the full check', () => {
  it('lets through every secret of the labelled corpus and every text the full check flags', async () => {
    const samples = [...secretSamples(5), ...nonSecretSamples(5)];
    for (const s of samples) {
      const found = (await findCredentials(s.text)).length > 0;
      if (found) expect(mayContainCredentials(s.text), `${s.format}: ${s.text}`).toBe(true);
    }
    for (const s of secretSamples(5))
      expect(mayContainCredentials(s.text), `${s.format}: ${s.text}`).toBe(true);
  });

  it('skips ordinary prose and short code', () => {
    expect(mayContainCredentials('We moved the release to Friday because the build was slow.\n')).toBe(false);
    expect(mayContainCredentials('- run npm test before merging\n- keep commits small\n')).toBe(false);
    expect(mayContainCredentials('部署之前先运行测试。\n')).toBe(false);
    expect(mayContainCredentials('rotate the password every 90 days')).toBe(true);
  });
});
