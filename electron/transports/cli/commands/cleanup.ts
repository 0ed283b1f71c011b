import { NO_ARGS, oneArg, scopeFlag, stringFlag } from '../args.js';
import { UsageError, type CliCommand } from '../types.js';
import { apiCommand } from '../api-command.js';

/** 待整理 on the command line: findings, dismiss, merge plan / apply, and the model for drafts. */
export const cleanupCommands: CliCommand[] = [
  {
    name: 'findings',
    usage: 'findings [--scope project|user] [--all]',
    summary:
      '待整理: same topic, broken links, missing files, unused and too-long notes (--all includes dismissed ones).',
    flags: { scope: 'string', all: 'boolean' },
    positionals: NO_ARGS,
    async run(io, args) {
      const scope = scopeFlag(args);
      const out = await io.invoke('cleanup.findings', {
        scope: scope ?? 'both',
        includeDismissed: args.flags.all === true,
      });
      const text = out.findings.length
        ? out.findings.map((f) => `${f.id}\n  ${f.detail}`).join('\n')
        : 'nothing to clean up';
      return { json: out, text };
    },
  },
  {
    name: 'dismiss',
    usage: 'dismiss FINDING_ID',
    summary: 'Dismiss a finding on this machine; it returns when one of its notes is edited.',
    flags: {},
    positionals: oneArg('FINDING_ID'),
    async run(io, args) {
      const out = await io.invoke('cleanup.dismiss', { findingId: args.positionals[0]! });
      return { json: out, text: `dismissed ${out.findingId}` };
    },
  },
  {
    name: 'merge plan',
    usage: 'merge plan --ids a,b[,c] [--draft manual|model] [--scope project|user]',
    summary: 'Plan a merge of 2–6 notes: prints the plan JSON (keepId, draft, basis) to edit and apply.',
    flags: { ids: 'string', draft: 'string', scope: 'string' },
    positionals: NO_ARGS,
    async run(io, args) {
      const ids = (stringFlag(args, 'ids') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (ids.length === 0) throw new UsageError('merge plan needs --ids a,b[,c]');
      const draft = stringFlag(args, 'draft') ?? 'manual';
      if (draft !== 'manual' && draft !== 'model')
        throw new UsageError(`--draft must be "manual" or "model", not "${draft}"`);
      const scope = scopeFlag(args);
      const plan = await io.invoke('cleanup.mergePlan', { ids, draft, ...(scope ? { scope } : {}) });
      // The plan itself is the output in both modes: it is what `merge apply --plan-file` reads.
      return {
        json: plan,
        text: JSON.stringify(plan, null, 2),
        ...(plan.fallback ? { notices: [`note: ${plan.fallback}`] } : {}),
      };
    },
  },
  {
    name: 'merge apply',
    usage: 'merge apply --plan-file F',
    summary:
      'Apply a merge plan (its draft possibly edited): keeps the oldest note, deletes the others, repoints links.',
    flags: { 'plan-file': 'string' },
    positionals: NO_ARGS,
    async run(io, args) {
      const file = stringFlag(args, 'plan-file');
      if (!file) throw new UsageError('merge apply needs --plan-file F');
      const text = await io.readFile(file);
      let plan: unknown;
      try {
        plan = JSON.parse(text);
      } catch (err) {
        throw new UsageError(`${file} is not JSON: ${(err as Error).message}`);
      }
      const out = await io.invoke('cleanup.mergeApply', plan as never);
      const repointed = out.repointed.length
        ? `; links repointed in ${out.repointed.map((r) => r.id).join(', ')}`
        : '';
      return {
        json: out,
        text: `merged into ${out.keptId}; deleted ${out.deletedIds.join(', ')}${repointed}; backups ${out.backupIds.join(', ')}`,
      };
    },
  },
  apiCommand(
    {
      name: 'model',
      summary: 'Whether a model is configured for merge suggestions (生成合并建议), and if not, why.',
    },
    'cleanup.modelStatus',
    {},
    (out) =>
      out.available
        ? `${out.model} at ${out.baseUrl}${out.hasApiKey ? ' (API key set)' : ''}`
        : (out.reason ?? 'unavailable'),
  ),
  {
    name: 'model set',
    usage: 'model set --base-url URL --model NAME [--api-key-stdin | --no-api-key] [--timeout-ms N]',
    summary:
      'Configure an OpenAI-compatible model; the API key (read from stdin) goes to a 0600 file, never a config file.',
    flags: {
      'base-url': 'string',
      model: 'string',
      'api-key-stdin': 'boolean',
      'no-api-key': 'boolean',
      'timeout-ms': 'string',
    },
    positionals: NO_ARGS,
    async run(io, args) {
      const baseUrl = stringFlag(args, 'base-url');
      const model = stringFlag(args, 'model');
      if (!baseUrl || !model) throw new UsageError('model set needs --base-url URL and --model NAME');
      let apiKey: string | null | undefined;
      if (args.flags['api-key-stdin'] === true) {
        apiKey = (await io.readStdin())?.trim() || null;
        if (!apiKey) throw new UsageError('--api-key-stdin: nothing on stdin');
      } else if (args.flags['no-api-key'] === true) apiKey = null;
      const timeout = stringFlag(args, 'timeout-ms');
      if (timeout !== undefined && !/^\d+$/.test(timeout))
        throw new UsageError(`--timeout-ms must be a whole number, not "${timeout}"`);
      const out = await io.invoke('cleanup.modelConfigure', {
        baseUrl,
        model,
        ...(apiKey !== undefined ? { apiKey } : {}),
        ...(timeout !== undefined ? { timeoutMs: Number(timeout) } : {}),
      });
      return {
        json: out,
        text: `model set: ${out.model} at ${out.baseUrl}${out.hasApiKey ? ' (API key set)' : ''}`,
      };
    },
  },
  apiCommand(
    { name: 'model clear', summary: 'Forget the model settings and its API key.' },
    'cleanup.modelConfigure',
    { baseUrl: null, model: null, apiKey: null },
    () => 'model cleared',
  ),
];
