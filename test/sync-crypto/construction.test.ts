import { createHash, createHmac, hkdfSync, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../shared/content-hash.js';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { noteIdProblem } from '../../shared/note-id.js';
import { ContentHashSchema, ProjectIdSchema } from '../../shared/sync-protocol.js';
import {
  deriveAccountKeys,
  keyedHash,
  keyedNoteId,
  keyedProjectId,
  type AccountKeys,
} from '../../electron/sync/crypto/account-keys.js';
import { seal } from '../../electron/sync/crypto/aead.js';
import { fromBase64Url, toBase64Url, type RandomSource } from '../../electron/sync/crypto/bytes.js';
import { EncryptionError } from '../../electron/sync/crypto/errors.js';
import { deriveKek, newKdfParams } from '../../electron/sync/crypto/kdf.js';
import {
  changePassphrase,
  createKeyring,
  unlockWithPassphrase,
  unlockWithRecoveryCode,
  type Keyring,
} from '../../electron/sync/crypto/keyring.js';
import { decodeRecoveryCode, encodeRecoveryCode } from '../../electron/sync/crypto/recovery-code.js';
import { openObject, openRecord, sealObject, sealRecord } from '../../electron/sync/crypto/sealed-object.js';

/** A deterministic byte source (0, 1, 2, … mod 256) for known answers. */
function counterRandom(): RandomSource {
  let next = 0;
  return (n) => Uint8Array.from({ length: n }, () => next++ & 0xff);
}

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const LOW = { logN: 10 }; // scrypt cost for tests; production is 2^17 (kdf.ts)

function note(
  id: string,
  body: string,
  summary = 'Pricing for borderless plans',
): { id: string; hash: string; content: string } {
  const content = serializeNote({
    id,
    summary,
    tags: ['pricing', 'sales'],
    body,
    createdAt: Date.UTC(2026, 0, 1),
    updatedAt: Date.UTC(2026, 0, 2),
  });
  const parsed = parseNote(content);
  if (!parsed.ok) throw new Error(parsed.reason);
  return { id, hash: contentHash(parsed.note), content };
}

function flipBit(b64: string, bit: number): string {
  const bytes = fromBase64Url(b64)!;
  bytes[bit >> 3]! ^= 1 << (bit & 7);
  return toBase64Url(bytes);
}

function failure(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof EncryptionError ? err.failure : `other: ${String(err)}`;
  }
}

describe('known answers: the primitives under the construction', () => {
  it('XChaCha20-Poly1305 as sealed here matches draft-irtf-cfrg-xchacha-03 §A.3.1', () => {
    const key = hex('808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f');
    const nonce = hex('404142434445464748494a4b4c4d4e4f5051525354555657');
    const aad = hex('50515253c0c1c2c3c4c5c6c7');
    const plaintext = new TextEncoder().encode(
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.",
    );
    const sealed = seal(key, plaintext, aad, () => nonce);
    const out = Buffer.from(sealed);
    expect(out.subarray(0, 24).toString('hex')).toBe('404142434445464748494a4b4c4d4e4f5051525354555657');
    expect(out.subarray(24, 56).toString('hex')).toBe(
      'bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb',
    );
    expect(out.subarray(out.length - 16).toString('hex')).toBe('c0875924c1c7987947deafd8780acf49');
  });

  it('the KEK is scrypt of the NFKC passphrase (checked against Node’s own scrypt)', async () => {
    const params = newKdfParams(counterRandom(), 10);
    const salt = fromBase64Url(params.salt)!;
    // "ｐａｓｓ" in full-width letters normalises (NFKC) to "pass".
    const kek = await deriveKek('ｐａｓｓｗｏｒｄ-horse', params);
    const expected = scryptSync('password-horse', salt, 32, { N: 1024, r: 8, p: 1 });
    expect(Buffer.from(kek).toString('hex')).toBe(expected.toString('hex'));
  });

  it('subkeys are HKDF-SHA256 and keyed names HMAC-SHA256 (checked against Node’s crypto)', () => {
    const master = hex('00'.repeat(31) + '01');
    const keys = deriveAccountKeys(master);
    const hk = (info: string): string =>
      Buffer.from(hkdfSync('sha256', master, 'memdesk:e2ee:v1', info, 32)).toString('hex');
    expect(Buffer.from(keys.object).toString('hex')).toBe(hk('object'));
    expect(Buffer.from(keys.meta).toString('hex')).toBe(hk('meta'));
    expect(Buffer.from(keys.name).toString('hex')).toBe(hk('name'));
    expect(Buffer.from(keys.hash).toString('hex')).toBe(hk('hash'));
    const hm = (key: Uint8Array, text: string): string =>
      createHmac('sha256', key).update(text, 'utf8').digest('hex');
    expect(keys.keyId).toBe(hm(master, 'memdesk:key-id:v1').slice(0, 32));
    expect(keyedNoteId(keys, 'project:p1', 'a-note')).toBe(hm(keys.name, 'note\0project:p1\0a-note'));
    expect(keyedProjectId(keys, 'p1')).toBe(hm(keys.name, 'project\0p1'));
    expect(keyedHash(keys, 'user', 'a-note', 'ab'.repeat(32))).toBe(
      hm(keys.hash, `hash\0user\0a-note\0${'ab'.repeat(32)}`),
    );
  });
});

describe('known answers: the construction (pinned, so a change that would strand stored data fails)', () => {
  it('a keyring and a sealed object from a fixed random source', async () => {
    const made = await createKeyring('correct horse battery', { random: counterRandom(), logN: 10 });
    expect(made.keyring).toEqual(PINNED.keyring);
    expect(made.recoveryCode).toBe(PINNED.recoveryCode);
    const keys = deriveAccountKeys(made.master);
    const sealed = sealObject(keys, 'user', note('n1', 'hello'), counterRandom());
    expect({ id: sealed.id, hash: sealed.hash }).toEqual({ id: PINNED.object.id, hash: PINNED.object.hash });
    expect(createHash('sha256').update(sealed.content).digest('hex')).toBe(PINNED.object.contentSha256);
    expect(openObject(keys, 'user', sealed).content).toBe(note('n1', 'hello').content);
  });
});

describe('the keyring', () => {
  it('opens with the passphrase and with the recovery code (any case, with or without dashes)', async () => {
    const made = await createKeyring('correct horse battery', LOW);
    const byPass = await unlockWithPassphrase(made.keyring, 'correct horse battery');
    expect(Buffer.from(byPass).equals(Buffer.from(made.master))).toBe(true);
    const sloppy = made.recoveryCode.toLowerCase().replace(/-/g, ' ');
    expect(Buffer.from(unlockWithRecoveryCode(made.keyring, sloppy)).equals(Buffer.from(made.master))).toBe(
      true,
    );
    expect(made.recoveryCode).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){7}[0-9A-HJKMNP-TV-Z]{4}$/);
  });

  it('a wrong passphrase or recovery code is refused as such', async () => {
    const made = await createKeyring('correct horse battery', LOW);
    await expect(unlockWithPassphrase(made.keyring, 'correct horse batterY')).rejects.toMatchObject({
      failure: 'wrong_passphrase',
    });
    const other = encodeRecoveryCode(new Uint8Array(20).fill(7));
    expect(failure(() => unlockWithRecoveryCode(made.keyring, other))).toBe('wrong_passphrase');
    expect(failure(() => unlockWithRecoveryCode(made.keyring, 'not a code'))).toBe('wrong_passphrase');
  });

  it('refuses a passphrase under 8 characters when creating', async () => {
    await expect(createKeyring('short', LOW)).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('changing the passphrase re-wraps only: same master key, same recovery wrap, old passphrase refused', async () => {
    const made = await createKeyring('correct horse battery', LOW);
    const changed = await changePassphrase(made.keyring, made.master, 'staple tuned anew', LOW);
    expect(changed.keyId).toBe(made.keyring.keyId);
    expect(changed.recovery).toEqual(made.keyring.recovery);
    expect(changed.passphrase.kdf.salt).not.toBe(made.keyring.passphrase.kdf.salt);
    const again = await unlockWithPassphrase(changed, 'staple tuned anew');
    expect(Buffer.from(again).equals(Buffer.from(made.master))).toBe(true);
    await expect(unlockWithPassphrase(changed, 'correct horse battery')).rejects.toMatchObject({
      failure: 'wrong_passphrase',
    });
  });

  it('a flipped bit in the wrapped key, or a swapped kdf or key id, does not open', async () => {
    const made = await createKeyring('correct horse battery', LOW);
    const flipped: Keyring = {
      ...made.keyring,
      passphrase: { ...made.keyring.passphrase, wrapped: flipBit(made.keyring.passphrase.wrapped, 300) },
    };
    await expect(unlockWithPassphrase(flipped, 'correct horse battery')).rejects.toBeInstanceOf(
      EncryptionError,
    );
    const otherId: Keyring = { ...made.keyring, keyId: 'f'.repeat(32) };
    await expect(unlockWithPassphrase(otherId, 'correct horse battery')).rejects.toBeInstanceOf(
      EncryptionError,
    );
    const weaker: Keyring = {
      ...made.keyring,
      passphrase: { ...made.keyring.passphrase, kdf: { ...made.keyring.passphrase.kdf, logN: 11 } },
    };
    await expect(unlockWithPassphrase(weaker, 'correct horse battery')).rejects.toBeInstanceOf(
      EncryptionError,
    );
  });
});

describe('sealed objects and entry records', () => {
  const keysA: AccountKeys = deriveAccountKeys(hex('11'.repeat(32)));
  const keysB: AccountKeys = deriveAccountKeys(hex('22'.repeat(32)));
  const n1 = note('pricing-borderless-3fa', 'Borderless plans cost 12 euros a seat.');

  it('round-trips, and the server sees no word of the note, its id or its hash', () => {
    const sealed = sealObject(keysA, 'project:p1', n1);
    expect(openObject(keysA, 'project:p1', sealed)).toEqual(n1);
    const visible = JSON.stringify(sealed);
    for (const word of ['pricing', 'Borderless', 'euros', 'sales', 'borderless-3fa', n1.hash])
      expect(visible).not.toContain(word);
  });

  it('keyed names are valid ids, hashes and project ids, and differ by account and scope', () => {
    const id = keyedNoteId(keysA, 'user', n1.id);
    expect(noteIdProblem(id)).toBeNull();
    expect(ContentHashSchema.safeParse(keyedHash(keysA, 'user', n1.id, n1.hash)).success).toBe(true);
    expect(ProjectIdSchema.safeParse(keyedProjectId(keysA, 'p1')).success).toBe(true);
    expect(keyedNoteId(keysB, 'user', n1.id)).not.toBe(id);
    expect(keyedNoteId(keysA, 'project:p1', n1.id)).not.toBe(id);
    expect(keyedHash(keysB, 'user', n1.id, n1.hash)).not.toBe(keyedHash(keysA, 'user', n1.id, n1.hash));
  });

  it('two notes with equal contents show the server no equal name or hash', () => {
    const one = note('twin-one', 'Same words in both.');
    const two = note('twin-two', 'Same words in both.');
    expect(one.hash).toBe(two.hash); // the content hash leaves the id out
    const a = sealObject(keysA, 'user', one);
    const b = sealObject(keysA, 'user', two);
    expect(a.hash).not.toBe(b.hash);
    expect(a.id).not.toBe(b.id);
    const ra = sealRecord(keysA, 'user', { id: one.id, hash: one.hash, seen: 1 });
    const rb = sealRecord(keysA, 'user', { id: two.id, hash: two.hash, seen: 1 });
    expect(ra.hash).not.toBe(rb.hash);
  });

  it('sizes are padded to buckets: 700 and 1000 bytes travel alike', () => {
    const a = sealObject(keysA, 'user', note('a', 'x'.repeat(500)));
    const b = sealObject(keysA, 'user', note('b', 'y'.repeat(800)));
    expect(a.content.length).toBe(b.content.length);
    expect(fromBase64Url(a.content)!.length).toBe(1024 + 40);
  });

  it('any one flipped bit is detected as tampering', () => {
    const sealed = sealObject(keysA, 'user', n1);
    const bits = fromBase64Url(sealed.content)!.length * 8;
    for (let bit = 0; bit < bits; bit += 37) {
      expect(
        failure(() => openObject(keysA, 'user', { ...sealed, content: flipBit(sealed.content, bit) })),
      ).toBe('tampered');
    }
    expect(
      failure(() => openObject(keysA, 'user', { ...sealed, content: flipBit(sealed.content, bits - 1) })),
    ).toBe('tampered');
  });

  it('an object moved to another note id, scope or hash, or under another account key, does not open', () => {
    const sealed = sealObject(keysA, 'project:p1', n1);
    const other = sealObject(keysA, 'project:p1', note('other-note', 'Other body.'));
    expect(failure(() => openObject(keysA, 'project:p1', { ...sealed, id: other.id }))).toBe('tampered');
    expect(failure(() => openObject(keysA, 'project:p1', { ...sealed, hash: other.hash }))).toBe('tampered');
    expect(failure(() => openObject(keysA, 'project:p2', sealed))).toBe('tampered');
    expect(failure(() => openObject(keysB, 'project:p1', sealed))).toBe('tampered');
  });

  it('records name the real id and hash; a tombstone record has none; moved or flipped ones fail', () => {
    const live = sealRecord(keysA, 'user', { id: n1.id, hash: n1.hash, seen: 7 });
    expect(openRecord(keysA, 'user', live)).toEqual({ id: n1.id, hash: n1.hash, seen: 7 });
    const gone = sealRecord(keysA, 'user', { id: 'old-idea-0b2', hash: null, seen: 9 });
    expect(gone.hash).toBeNull();
    expect(openRecord(keysA, 'user', gone)).toEqual({ id: 'old-idea-0b2', hash: null, seen: 9 });
    expect(failure(() => openRecord(keysA, 'user', { ...live, id: gone.id }))).toBe('tampered');
    expect(failure(() => openRecord(keysA, 'user', { ...live, hash: null }))).toBe('tampered');
    expect(failure(() => openRecord(keysA, 'user', { ...live, meta: flipBit(live.meta, 200) }))).toBe(
      'tampered',
    );
    expect(failure(() => openRecord(keysA, 'project:p1', live))).toBe('tampered');
  });
});

describe('recovery codes', () => {
  it('encode 20 bytes as 32 Crockford characters and read back O/I/L as 0/1/1', () => {
    const bytes = Uint8Array.from({ length: 20 }, (_, i) => i * 13);
    const code = encodeRecoveryCode(bytes);
    expect(Buffer.from(decodeRecoveryCode(code)!).equals(Buffer.from(bytes))).toBe(true);
    const typed = code.replace(/0/g, 'O').replace(/1/g, 'l');
    expect(Buffer.from(decodeRecoveryCode(typed)!).equals(Buffer.from(bytes))).toBe(true);
    expect(decodeRecoveryCode(code.slice(1))).toBeNull();
    expect(decodeRecoveryCode(code.replace(/.$/, 'U'))).toBeNull();
  });
});

/** Computed once by this code (logN 10, counter random) and pinned; not from an outside source. */
const PINNED = {
  keyring: {
    format: 1,
    keyId: 'f2d4942ba0f605f8f159dfddba7eb5d8',
    passphrase: {
      kdf: { name: 'scrypt', logN: 10, r: 8, p: 1, salt: 'REVGR0hJSktMTU5PUFFSUw' },
      wrapped:
        'VFVWV1hZWltcXV5fYGFiY2RlZmdoaWprDAHAp4gCwg2XcCQ6iRtA3XRA_p-L1ORbLb43xrJN12UlSYld4i4LCXDBQ2hx0HVD',
    },
    recovery: {
      salt: 'NDU2Nzg5Ojs8PT4_QEFCQw',
      wrapped:
        'bG1ub3BxcnN0dXZ3eHl6e3x9fn-AgYKDJspi0KgJxrApWAm65y9lUwyuXNDErQwmmI2mFJ1dJ1dy0zpR-tUdgyoQh5Bbe-MX',
    },
  } satisfies Keyring,
  recoveryCode: '40GJ-48S4-4MK2-EA19-58NJ-RB9E-5WR3-2CHK',
  object: {
    id: '78984505d0afa4f0185e1da210cce668634d48677876217cd61965362b37d001',
    hash: 'eb34a1c635036cd2a389e3bfc44db2910bfaadcd6bb5a7b9b2e3bf9bd7e6d2f7',
    contentSha256: 'ebff7e45c0cd9c5270600103e9e71b0177f0a39a75417dc347f5aaef68617322',
  },
};
