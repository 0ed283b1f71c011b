import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeText } from '../../electron/sync/merge/index.js';
import { gitMergeFile } from './git-merge-file.js';
import { editDoc, joinDoc, randomDoc } from './random-docs.js';
import { mulberry32 } from '../support/prng.js';
import { tempDir } from '../support/temp-dir.js';

// Differential check against the real `git merge-file -p --diff3` on seeded random note bodies.
// Seeds are fixed, so every run checks the same 200 cases; a failure names its seed.
const CASES = 200;

let dir: string;
beforeAll(async () => {
  dir = await tempDir('merge-diff');
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function caseFor(seed: number): { base: string; local: string; cloud: string } {
  const rand = mulberry32(seed);
  const size = Math.floor(rand() * (seed % 10 === 0 ? 200 : 40));
  const base = randomDoc(rand, size);
  const local = editDoc(rand, base, Math.floor(rand() * 5));
  const cloud = editDoc(rand, base, Math.floor(rand() * 5));
  const finalNewline = () => rand() < 0.85;
  return {
    base: joinDoc(base, finalNewline()),
    local: joinDoc(local, finalNewline()),
    cloud: joinDoc(cloud, finalNewline()),
  };
}

describe('differential check against git merge-file', () => {
  it(`agrees with git on ${CASES} random documents (never clean where git conflicts)`, () => {
    const counts = { bothClean: 0, bothConflict: 0, sameDraft: 0, oursOnlyConflict: 0 };
    for (let seed = 1; seed <= CASES; seed++) {
      const { base, local, cloud } = caseFor(seed);
      const ours = mergeText(base, local, cloud);
      const git = gitMergeFile(dir, base, local, cloud);
      const where = `seed ${seed}: ${JSON.stringify({ base, local, cloud })}`;
      if (git.conflicts === 0 && ours.clean) {
        counts.bothClean++;
        expect(ours.text, where).toBe(git.text);
      } else if (git.conflicts > 0) {
        // Ours must never be clean where git reports a conflict.
        expect(ours.clean, where).toBe(false);
        counts.bothConflict++;
        if (ours.text === git.text) counts.sameDraft++;
      } else {
        // Allowed (conservative): ours conflicts where git combines; counted and reported.
        counts.oursOnlyConflict++;
      }
    }
    console.log(`merge differential vs git merge-file (${CASES} cases):`, JSON.stringify(counts));
    expect(counts.bothClean + counts.bothConflict + counts.oursOnlyConflict).toBe(CASES);
    // The sample must exercise both outcomes to mean anything.
    expect(counts.bothClean).toBeGreaterThan(CASES / 5);
    expect(counts.bothConflict).toBeGreaterThan(CASES / 5);
  });
});
