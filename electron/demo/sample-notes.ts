import type { Note, Scope } from '../../shared/note.js';

/**
 * The demo's sample memory: what a coding agent might have written over a few weeks on a small web
 * shop. It exercises every part of the Memory page: all four types and an untyped legacy note, links
 * and a broken link, near-duplicates (for 待整理), a note over 8,000 characters, and Chinese text.
 */
export interface SampleNote extends Omit<Note, 'createdAt' | 'updatedAt'> {
  scope: Scope;
  /** Days before "now" the note was created and last updated. */
  createdDaysAgo: number;
  updatedDaysAgo: number;
}

function longMigrationHistory(): string {
  const parts = [
    '# Database migration history',
    '',
    'Every schema change since the shop moved to Postgres, newest last. Keep this in sync with `db/migrations/`.',
    '',
  ];
  const tables = [
    'orders',
    'order_items',
    'customers',
    'addresses',
    'products',
    'prices',
    'coupons',
    'inventory',
    'shipments',
    'refunds',
  ];
  for (let i = 1; i <= 40; i++) {
    const table = tables[i % tables.length]!;
    parts.push(
      `## ${String(i).padStart(4, '0')}_${table}_change`,
      '',
      `- Adds an index on \`${table}.updated_at\` because the nightly export scanned the whole table (took ${i * 3} s).`,
      `- Backfill runs in batches of 5,000 rows; it is safe to stop and resume.`,
      `- Rollback: drop the index; no data changes. Reviewed in PR #${100 + i}.`,
      '',
    );
  }
  parts.push('See [[build-commands-1b0]] for how to run migrations locally.');
  return parts.join('\n');
}

export const SAMPLE_NOTES: SampleNote[] = [
  {
    scope: 'project',
    id: 'pricing-borderless-3fa',
    summary: 'Pricing cards use fills, not borders',
    type: 'feedback',
    tags: ['design', 'pricing'],
    body: 'Cards on the pricing page are separated by fill and whitespace, never by 1px borders. The designer rejected borders twice.\n\nLayout details: [[pricing-layout-a91]].\n',
    createdDaysAgo: 21,
    updatedDaysAgo: 3,
  },
  {
    scope: 'project',
    id: 'pricing-cards-fill-7c2',
    summary: 'Pricing cards: use background fills instead of borders',
    type: 'feedback',
    tags: ['design', 'pricing', 'css'],
    body: 'Do not draw borders around the pricing cards; use a light background fill (`--surface-2`) and 24px gaps.\n',
    createdDaysAgo: 9,
    updatedDaysAgo: 9,
  },
  {
    scope: 'project',
    id: 'pricing-layout-a91',
    summary: 'Pricing page layout: three tiers with an annual toggle',
    type: 'project',
    tags: ['pricing', 'frontend'],
    body: 'Three tiers (Starter, Team, Business). The annual/monthly toggle sits above the cards and defaults to annual.\nThe Team tier is highlighted. Styling rules: [[pricing-borderless-3fa]].\n',
    createdDaysAgo: 30,
    updatedDaysAgo: 12,
  },
  {
    scope: 'project',
    id: 'build-commands-1b0',
    summary: 'Build, test and migrate commands',
    type: 'reference',
    tags: ['build', 'commands'],
    body: '```sh\nnpm ci\nnpm run build\nnpm test            # unit + integration, needs Docker for Postgres\nnpm run db:migrate  # applies db/migrations in order\n```\n\nCI runs the same commands; see [[ci-pipeline-6d4]].\n',
    createdDaysAgo: 40,
    updatedDaysAgo: 2,
  },
  {
    scope: 'project',
    id: 'ci-pipeline-6d4',
    summary: 'CI pipeline: lint, test, build, deploy to staging on main',
    type: 'reference',
    tags: ['ci', 'deploy'],
    body: 'GitHub Actions: lint → test → build → deploy to staging when the branch is main. Production deploys are manual.\nDeploy details: [[deploy-staging-44e]].\n',
    createdDaysAgo: 35,
    updatedDaysAgo: 20,
  },
  {
    scope: 'project',
    id: 'deploy-staging-44e',
    summary: 'Deploys to staging go through the release branch',
    type: 'project',
    tags: ['deploy', 'release'],
    // release-checklist-9d1 does not exist: the broken link of the sample.
    body: 'Merge to `release/*`, wait for the smoke tests, then promote. Follow [[release-checklist-9d1]] before promoting to production.\n',
    createdDaysAgo: 18,
    updatedDaysAgo: 6,
  },
  {
    scope: 'project',
    id: 'api-error-format-5e2',
    summary: 'API errors are {"error": {"code", "message"}}',
    type: 'reference',
    tags: ['api', 'errors'],
    body: 'Every endpoint answers errors as `{"error": {"code": "...", "message": "..."}}` with a stable code. The frontend shows `message` as is.\n',
    createdDaysAgo: 25,
    updatedDaysAgo: 25,
  },
  {
    scope: 'project',
    id: 'tests-real-db-2aa',
    summary: 'Tests use a real Postgres in Docker, no mocks of the repository layer',
    type: 'feedback',
    tags: ['testing'],
    body: 'The team was burned by mocked repositories hiding a broken migration. Integration tests start Postgres with Docker; see [[build-commands-1b0]].\n',
    createdDaysAgo: 15,
    updatedDaysAgo: 15,
  },
  {
    scope: 'project',
    id: 'db-migrations-history-8f3',
    summary: 'Database migration history (long)',
    type: 'project',
    tags: ['database', 'migrations'],
    body: longMigrationHistory(),
    createdDaysAgo: 60,
    updatedDaysAgo: 1,
  },
  {
    scope: 'project',
    id: 'release-process-zh-3c9',
    summary: '发布流程：先在预发布环境验证，再发布到生产环境',
    type: 'project',
    tags: ['发布', 'deploy'],
    body: '每次发布前，先把 release 分支部署到预发布环境，跑完冒烟测试后再手动发布到生产环境。\n周五下午不发布。相关说明见 [[deploy-staging-44e]]。\n',
    createdDaysAgo: 8,
    updatedDaysAgo: 4,
  },
  {
    scope: 'project',
    id: 'package-manager-npm-0e1',
    // Written before note types existed: no type, and it keeps working.
    summary: 'Use npm workspaces, not pnpm',
    tags: ['tooling'],
    body: 'The repo tried pnpm and went back: the deploy image only ships npm. Keep `package-lock.json` committed.\n',
    createdDaysAgo: 90,
    updatedDaysAgo: 90,
  },
  {
    scope: 'user',
    id: 'prefers-concise-answers-4b7',
    summary: 'Prefers short answers with the code first',
    type: 'user',
    tags: ['style'],
    body: 'Show the code or command first, then at most three sentences of explanation.\n',
    createdDaysAgo: 50,
    updatedDaysAgo: 10,
  },
  {
    scope: 'user',
    id: 'concise-code-first-9e0',
    summary: 'Likes concise answers: code first, explanation after',
    type: 'user',
    tags: ['style', 'answers'],
    body: 'Answer with the snippet first; keep the explanation short.\n',
    createdDaysAgo: 5,
    updatedDaysAgo: 5,
  },
  {
    scope: 'user',
    id: 'timezone-cet-1f2',
    summary: 'Works in CET; no meetings after 18:00',
    type: 'user',
    tags: ['schedule'],
    body: 'Based in Stockholm (CET/CEST). Suggest times before 18:00 local.\n',
    createdDaysAgo: 70,
    updatedDaysAgo: 70,
  },
  {
    scope: 'user',
    id: 'editor-vim-keys-5d6',
    summary: 'Uses Vim keybindings in every editor',
    type: 'reference',
    tags: ['editor', 'tooling'],
    body: 'When giving editor instructions, give the Vim motion as well (e.g. `ci"`).\n',
    createdDaysAgo: 45,
    updatedDaysAgo: 30,
  },
  {
    scope: 'user',
    id: 'chinese-replies-zh-7a8',
    summary: '用户喜欢用简洁的中文回答技术问题',
    type: 'user',
    tags: ['语言', 'style'],
    body: '技术问题用中文回答，代码注释保持英文。回答尽量简洁，先给出代码。\n',
    createdDaysAgo: 12,
    updatedDaysAgo: 7,
  },
  {
    scope: 'user',
    id: 'review-feedback-tone-6c1',
    summary: 'Code review comments: suggest, do not command',
    type: 'feedback',
    tags: ['review'],
    body: 'Phrase review comments as suggestions with a reason. See also [[prefers-concise-answers-4b7]].\n',
    createdDaysAgo: 14,
    updatedDaysAgo: 14,
  },
];
