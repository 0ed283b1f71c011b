import fs from 'node:fs/promises';
import { answerTask } from '../../memory/worker-pool/in-worker.js';
import { readArchive } from '../archive/zip-format.js';
import { readMnemopiBank } from '../mnemopi/read-bank.js';
import type { ImportTask } from './tasks.js';

/** The import worker (run-in-worker.ts): reads one zip or the banks of one import and answers, writes nothing. */
answerTask(async (task: ImportTask) => {
  if (task.kind === 'zip') return readArchive(new Uint8Array(await fs.readFile(task.file)), task.limits);
  const banks = [];
  for (const file of task.files) banks.push(await readMnemopiBank(file, task.limits));
  return banks;
});
