import { describe, expect, it } from 'vitest';
import { mergeExtra } from '../../electron/sync/merge/extra-merge.js';

describe('mergeExtra: foreign frontmatter keys, key by key', () => {
  it.each([
    ['added on each side', undefined, { a: 1 }, { b: 2 }, { a: 1, b: 2 }],
    ['changed on one side', { a: 1 }, { a: 1 }, { a: 2 }, { a: 2 }],
    ['removed on one side', { a: 1, b: 2 }, { b: 2 }, { a: 1, b: 2 }, { b: 2 }],
    ['removed on both', { a: 1 }, {}, undefined, undefined],
    ['the same change on both', { a: 1 }, { a: [2] }, { a: [2] }, { a: [2] }],
    ['changed differently: this computer’s', { a: 1 }, { a: 2 }, { a: 3 }, { a: 2 }],
    ['removed here, changed in the cloud: the change', { a: 1 }, {}, { a: 3 }, { a: 3 }],
  ] as const)('%s', (_name, base, local, cloud, merged) => {
    expect(mergeExtra(base, local, cloud)).toEqual(merged);
  });
});
