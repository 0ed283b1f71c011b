import { spawn } from 'node:child_process';

/**
 * `tsx scripts/run-parallel.ts typecheck lint build`: runs those npm scripts side by side (they
 * read the sources and write nothing the others read), prints each one's output whole once it ends,
 * and fails when any failed. `npm test` runs its checks this way before vitest: on CI's two cores
 * they take the wall time of the slowest instead of the sum.
 */
interface Outcome {
  name: string;
  code: number;
  output: string;
  seconds: number;
}

function runScript(name: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const done = (code: number) =>
      resolve({ name, code, output, seconds: (performance.now() - started) / 1000 });
    child.on('error', (err) => {
      output += `${err.message}\n`;
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: tsx scripts/run-parallel.ts <npm script>...');
  process.exit(2);
}
const outcomes = await Promise.all(
  names.map((name) =>
    runScript(name).then((outcome) => {
      const verdict = outcome.code === 0 ? 'ok' : `failed (exit ${outcome.code})`;
      process.stdout.write(`${outcome.output}> ${name}: ${verdict} in ${outcome.seconds.toFixed(1)} s\n`);
      return outcome;
    }),
  ),
);
process.exitCode = outcomes.some((o) => o.code !== 0) ? 1 : 0;
