import { NO_ARGS } from '../args.js';
import type { CliCommand } from '../types.js';
import { apiCommand } from '../api-command.js';

export const projectCommands: CliCommand[] = [
  apiCommand(
    {
      name: 'project init',
      summary: 'Register the project: .oharness/project.json with a stable id, empty MEMORY/ and ARTIFACTS/.',
    },
    'project.init',
    {},
    (out) => `project ${out.projectId}\nnotes: ${out.memoryDir}\nartifacts: ${out.artifactsDir}`,
  ),
  {
    name: 'info',
    usage: 'info',
    summary: 'Where the data lives, how many notes loaded, and every warning.',
    flags: {},
    positionals: NO_ARGS,
    async run(io) {
      const out = await io.invoke('app.status', {});
      const lines = [
        `home: ${out.home}`,
        `project: ${out.project ? `${out.project.root} (${out.project.id ?? 'not registered: run project init'})` : '(none)'}`,
        `project notes: ${out.project ? `${out.counts.project} in ${out.project.memoryDir}` : '-'}`,
        `user notes: ${out.userDir ? `${out.counts.user} in ${out.userDir}` : 'unavailable'}`,
      ];
      const unexpected = out.unexpectedErrors;
      if (unexpected.count > 0)
        lines.push(
          `unexpected errors: ${unexpected.count}${unexpected.log ? ` (logged in ${unexpected.log})` : ''}`,
          ...unexpected.recent.map((e) => `  ${e.where}: ${e.message}`),
        );
      // The one-off check of project-true retain: user notes only some projects see.
      const tagged = await io.invoke('agents.connections', {});
      for (const t of tagged.taggedForProjects) {
        lines.push(
          `user notes tagged project:${t.label}: ${t.notes.length}${t.hiddenHere ? ' (not seen in this project)' : ''}`,
          ...t.notes.map((n) => `  ${n.id}: ${n.summary}`),
        );
      }
      return {
        json: { ...out, projectLabel: tagged.projectLabel, taggedForProjects: tagged.taggedForProjects },
        text: lines.join('\n'),
        notices: out.warnings.map((w) => `warning: ${w.message}`),
      };
    },
  },
];
