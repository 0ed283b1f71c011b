import { unexpectedErrors } from '../../memory/unexpected-error.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';

export type ProjectHandlers = Pick<ApiHandlers, 'project.init' | 'app.status'>;

export function createProjectHandlers({ core }: HandlerContext): ProjectHandlers {
  return {
    'project.init': async () => {
      const info = await core.registerProject();
      return {
        projectId: info.id,
        root: info.root,
        memoryDir: info.memoryDir,
        artifactsDir: info.artifactsDir,
      };
    },
    'app.status': async () => ({
      home: core.home,
      project: core.project
        ? { root: core.project.root, id: core.project.id, memoryDir: core.project.memoryDir }
        : null,
      userDir: core.user.store?.dir ?? null,
      counts: {
        project: core.store('project')?.list().length ?? 0,
        user: core.store('user')?.list().length ?? 0,
      },
      warnings: core.warnings(),
      unexpectedErrors: unexpectedErrors(),
    }),
  };
}
