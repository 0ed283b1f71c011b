import { describe, expect, it } from 'vitest';
import {
  credentialWarning,
  findCredentials,
  maskCredentials,
  refuseCredentials,
} from '../../electron/memory/credentials.js';
import { nonSecretSamples, SECRET_FORMAT_COUNT, secretSamples } from './credential-corpus.js';

describe('credential check: the labelled corpus', () => {
  it('catches ≥ 95% of fake secrets with ≤ 2% false positives', async () => {
    const secrets = secretSamples();
    const plain = nonSecretSamples();
    expect(secrets.length).toBeGreaterThanOrEqual(100);
    expect(SECRET_FORMAT_COUNT).toBeGreaterThanOrEqual(30);
    expect(plain.length).toBeGreaterThanOrEqual(100);
    const missed: string[] = [];
    for (const s of secrets)
      if ((await findCredentials(s.text)).length === 0) missed.push(`${s.format}: ${s.text}`);
    const flagged: string[] = [];
    for (const s of plain) {
      const found = await findCredentials(s.text);
      if (found.length > 0) flagged.push(`${s.format}: ${s.text} → ${found.map((f) => f.kind).join(', ')}`);
    }
    const recall = 1 - missed.length / secrets.length;
    const falsePositiveRate = flagged.length / plain.length;
    console.log(
      `credential corpus: ${secrets.length} secrets in ${SECRET_FORMAT_COUNT} formats, recall ${(recall * 100).toFixed(1)}%; ` +
        `${plain.length} non-secrets, false positives ${(falsePositiveRate * 100).toFixed(1)}%` +
        (missed.length ? `\n  missed:\n    ${missed.join('\n    ')}` : '') +
        (flagged.length ? `\n  flagged:\n    ${flagged.join('\n    ')}` : ''),
    );
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(falsePositiveRate).toBeLessThanOrEqual(0.02);
  });
});

describe('credential check: the formats the audit found accepted', () => {
  it.each([
    ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ3vT8pLmN'],
    ['DB_PASSWORD=Tr0ub4dor&3x'],
    ['//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['postgres://u:s3cretPass@h/db'],
    ['AccountName=x;AccountKey=Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8='],
    ['Authorization: Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9abc123'],
    ['hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567'],
    ['glpat-Ab3dEf6hIj9lMn2pQr5t'],
    ['https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/AbCdEfGhIjKlMnOpQrStUvWx'],
    ['SG.AbCdEfGhIjKlMnOpQrStUv.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG'],
  ])('refuses %s', async (text) => {
    const found = await findCredentials(`note: ${text} end`);
    expect(found.length).toBeGreaterThan(0);
    for (const f of found)
      expect(text.includes(f.excerpt.replace('…', '')) && f.excerpt.length < text.length).toBe(true);
  });

  it('reports every finding at once, never a whole secret', async () => {
    const body = 'DB_PASSWORD=Tr0ub4dor&3x\nand token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const err = await refuseCredentials([
      ['the summary', 'deploy notes'],
      ['the body', body],
    ]).catch((e: unknown) => e as Error & { code: string });
    expect(err).toMatchObject({ code: 'refused' });
    expect(err!.message).toContain('the body looks like it contains a password or secret in an assignment');
    expect(err!.message).toMatch(/GitHub/);
    expect(err!.message).not.toContain('Tr0ub4dor&3x');
    expect(err!.message).not.toContain('ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789');
  });

  it('a secretlint-disable comment in the text does not switch the check off', async () => {
    const text = '<!-- secretlint-disable -->\ntoken ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    expect((await findCredentials(text)).length).toBeGreaterThan(0);
  });

  it('masks every credential and warns (without refusing) for a pulled note', async () => {
    expect(await maskCredentials('a sk-abcdefghijklmnopqrstuvwxyz and password=hunter2hunter2 end')).toBe(
      'a [redacted] and password=[redacted] end',
    );
    expect(await credentialWarning('n1', [['the body', 'DB_PASSWORD=Tr0ub4dor&3x']])).toMatch(
      /note "n1" looks like it contains .* it is kept/,
    );
    expect(await credentialWarning('n1', [['the body', 'no secrets here']])).toBeNull();
  });
});
