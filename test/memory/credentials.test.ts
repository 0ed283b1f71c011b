import { describe, expect, it } from 'vitest';
import { findCredentials, maskCredentials } from '../../electron/memory/credentials.js';

describe('credential detection', () => {
  it.each([
    ['sk-ant-api03-abcdefghijklmnopqrstuv', 'an API key (sk-…)'],
    ['sk_live_abcdefghijklmnop1234', 'a Stripe key'],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'a GitHub token'],
    ['AKIAQ3EGRTY5PZ7K2LMN', 'AWS'],
    ['xoxp-1234-5678-abcdefgh', 'a Slack token'],
    ['AIzaSyA-1234567890abcdefghijklmnopqrstu', 'Google'],
    ['-----BEGIN RSA PRIVATE KEY-----', 'a private key (PEM)'],
    ['export PASSWORD="correct-horse-battery"', 'a password or secret in an assignment'],
    ['client_secret: 9f8e7d6c5b4a', 'a password or secret in an assignment'],
  ])('finds %s', async (text, kind) => {
    const [found] = await findCredentials(`before ${text} after`);
    expect(found?.kind.toLowerCase()).toContain(kind.toLowerCase());
    // The message never repeats the whole secret.
    if (!kind.includes('PEM')) expect(found!.excerpt.length).toBeLessThan(text.length);
  });

  it.each([
    'The password must be at least 12 characters.',
    'password: <your password here>',
    'api_key = ${API_KEY}',
    'token: string;',
    'password=process.env.DB_PASSWORD',
    'Use the sk- prefix for secret keys',
    'ask-me-anything is a channel',
  ])('lets ordinary text through: %s', async (text) => {
    expect(await findCredentials(text)).toEqual([]);
  });

  it('masks every credential', async () => {
    expect(await maskCredentials('a sk-abcdefghijklmnopqrstuvwxyz and password=hunter2hunter2 end')).toBe(
      'a [redacted] and password=[redacted] end',
    );
  });
});
