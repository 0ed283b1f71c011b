/**
 * The credential check on notes arriving by sync pull: the full check (credentialWarning: both
 * layers, secretlint included) on every pulled note, against the same with the cheap gate in front
 * (round/apply.ts pulledCredentialWarning), on generated notes — mostly prose and short task lists
 * as agents write them, some with file paths or URLs (the gate lets those through), 1 in 50 with a
 * fake key. Both are measured in this run; the ratio is the figure.
 * Run: npx tsx bench/sync/pull-credentials.ts [--notes N]
 */
import { performance } from 'node:perf_hooks';
import { credentialWarning } from '../../electron/memory/credentials.js';
import { pulledCredentialWarning } from '../../electron/sync/round/apply.js';
import type { Note } from '../../shared/note.js';

const argIndex = process.argv.indexOf('--notes');
const NOTES = argIndex >= 0 ? Number(process.argv[argIndex + 1]) : 3000;

let seed = 42;
const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const WORDS =
  'the build deploy release team prefers short commits review tests before merging keep notes small friday monday database cache answer user asked for plain language'.split(
    ' ',
  );
const sentence = (n: number): string =>
  Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');

function note(i: number): Note {
  const lines = [sentence(12) + '.', '- ' + sentence(6), '- ' + sentence(5)];
  if (i % 5 === 0) lines.push(`see electron/sync/round/plan.ts and https://example.com/docs/page-${i}`);
  if (i % 50 === 0) lines.push(`token: ghp_${'A1b2C3d4E5'.repeat(4)}`);
  return {
    id: `n${i}`,
    summary: sentence(6),
    tags: ['team'],
    body: lines.join('\n') + '\n',
    createdAt: 1,
    updatedAt: 1,
  };
}

const notes = Array.from({ length: NOTES }, (_, i) => note(i));
const fieldsOf = (n: Note) =>
  [
    ['the summary', n.summary],
    ['the tags', n.tags.join(' ')],
    ['the body', n.body],
  ] as const;

// Warm both paths (secretlint loads its rules on first use).
for (const n of notes.slice(0, 20)) {
  await credentialWarning(n.id, fieldsOf(n));
  await pulledCredentialWarning(n);
}

let t = performance.now();
let fullFound = 0;
for (const n of notes) if (await credentialWarning(n.id, fieldsOf(n))) fullFound++;
const full = performance.now() - t;

t = performance.now();
let gatedFound = 0;
for (const n of notes) if (await pulledCredentialWarning(n)) gatedFound++;
const gated = performance.now() - t;

console.log(`pulled notes: ${NOTES}`);
console.log(
  `full check on every note:  ${full.toFixed(0)} ms (${(full / NOTES).toFixed(3)} ms/note), ${fullFound} warnings`,
);
console.log(
  `gate, then the full check: ${gated.toFixed(0)} ms (${(gated / NOTES).toFixed(3)} ms/note), ${gatedFound} warnings`,
);
console.log(`ratio: ${(full / gated).toFixed(1)}× faster; same warnings: ${fullFound === gatedFound}`);
