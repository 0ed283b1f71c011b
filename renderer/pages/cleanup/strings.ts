import { useTranslation } from 'react-i18next';

/** The 待整理 page's strings (kept with the page; English and Chinese like the rest of the app). */
const en = {
  title: 'Cleanup (待整理)',
  intro:
    'A review run on this machine, without a model. Dismissing a finding hides it until one of its notes changes.',
  empty: 'Nothing to clean up.',
  kinds: {
    same_topic: 'Same topic',
    broken_link: 'Broken links',
    missing_file: 'Missing files',
    unused: 'Unused',
    too_long: 'Too long',
  },
  merge: 'Merge…',
  open: 'Open',
  dismiss: 'Dismiss',
  scope: { project: 'project', user: 'mine' },
  mergeTitle: 'Merge {{count}} notes',
  originals: 'Notes being merged',
  oldest: 'oldest — kept',
  draft: 'Merged note',
  summary: 'Summary',
  type: 'Type',
  noType: '(none)',
  tags: 'Tags',
  body: 'Body',
  modelDraft: '生成合并建议',
  manualDraft: '手动合并',
  drafting: 'Asking the model…',
  cancel: 'Cancel',
  close: 'Close',
  apply: 'Apply merge',
  applying: 'Merging…',
  preview: 'Keeps {{keep}}; deletes {{deleted}}.',
  repointNone: 'No other note links to the deleted ones.',
  repoint: 'Links repointed to {{keep}} in: {{ids}}.',
  fallback: 'Model draft not used: {{reason}}',
  remarks: 'Model draft cleaned: {{remarks}}',
  fromModel: 'Draft by the model — review it before applying.',
  replaceDraftTitle: 'Replace your edited draft?',
  replaceDraftBody: 'The merged note has your own edits. A new draft replaces them.',
  replaceDraft: 'Replace my draft',
  filterKind: 'Kind',
  filterScope: 'Scope',
  allKinds: 'All kinds',
  allScopes: 'Both scopes',
  showMore: 'Show {{count}} more',
  dismissAll: 'Dismiss these {{count}}',
  dismissed: 'Dismissed {{count}}.',
  dismissedOne: 'Dismissed',
  undoDismiss: 'Undo',
  undismissed: 'Brought back {{count}}.',
  undoHint: 'Dismissed by mistake? Undo from the message below, or press Ctrl+Z (⌘Z).',
  confirmApplyTitle: 'Apply this merge?',
  confirmApply: 'Apply merge',
  applied:
    'Merged into “{{keep}}”: {{deleted}} deleted, links repointed in {{repointed}} notes. Backups were kept.',
  undoMerge: 'Undo',
  undone: 'Merge undone: the notes are back as they were.',
  // The core's detail line is English: English shows it, other languages a sentence of their own.
  detail: {
    same_topic: '{{detail}}',
    broken_link: '{{detail}}',
    missing_file: '{{detail}}',
    unused: '{{detail}}',
    too_long: '{{detail}}',
  },
};

const zh: typeof en = {
  title: '待整理',
  intro: '在本机运行的检查，不使用模型。忽略某项后，直到相关笔记被修改才会再次出现。',
  empty: '没有需要整理的内容。',
  kinds: {
    same_topic: '相同主题',
    broken_link: '失效链接',
    missing_file: '文件缺失',
    unused: '未使用',
    too_long: '过长',
  },
  merge: '合并…',
  open: '打开',
  dismiss: '忽略',
  scope: { project: '项目', user: '我的' },
  mergeTitle: '合并 {{count}} 条笔记',
  originals: '要合并的笔记',
  oldest: '最早 — 保留',
  draft: '合并后的笔记',
  summary: '摘要',
  type: '类型',
  noType: '（无）',
  tags: '标签',
  body: '正文',
  modelDraft: '生成合并建议',
  manualDraft: '手动合并',
  drafting: '正在询问模型…',
  cancel: '取消',
  close: '关闭',
  apply: '执行合并',
  applying: '正在合并…',
  preview: '保留 {{keep}}；删除 {{deleted}}。',
  repointNone: '没有其他笔记链接到被删除的笔记。',
  repoint: '以下笔记中的链接将改为指向 {{keep}}：{{ids}}。',
  fallback: '未使用模型草稿：{{reason}}',
  remarks: '已清理模型草稿：{{remarks}}',
  fromModel: '草稿由模型生成 — 请在执行前检查。',
  replaceDraftTitle: '替换你编辑过的草稿？',
  replaceDraftBody: '合并后的笔记里有你自己的修改。新的草稿会替换它们。',
  replaceDraft: '替换我的草稿',
  filterKind: '类别',
  filterScope: '范围',
  allKinds: '所有类别',
  allScopes: '两个范围',
  showMore: '再显示 {{count}} 条',
  dismissAll: '忽略这 {{count}} 项',
  dismissed: '已忽略 {{count}} 项。',
  dismissedOne: '已忽略',
  undoDismiss: '撤销',
  undismissed: '已恢复 {{count}} 项。',
  undoHint: '误忽略了？可在下方提示中撤销，或按 Ctrl+Z（⌘Z）。',
  confirmApplyTitle: '执行这次合并？',
  confirmApply: '执行合并',
  applied: '已合并到“{{keep}}”：删除 {{deleted}}，{{repointed}} 条笔记中的链接已改指。已保留备份。',
  undoMerge: '撤销',
  undone: '合并已撤销：这些笔记已恢复原样。',
  detail: {
    same_topic: '这些笔记讲的是同一件事。',
    broken_link: '链接到尚未写成的笔记：',
    missing_file: '提到的文件在项目中找不到：',
    unused: '很久没有被召回或修改。',
    too_long: '正文过长。',
  },
};

export type CleanupStrings = typeof en;

/** Also in the string tables as `cleanupUi` (a toast is kept as a key, worded when drawn). */
export const cleanupUiEn = en;
export const cleanupUiZh: CleanupStrings = zh;

function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
}

export function useCleanupStrings(): { s: CleanupStrings; f: typeof fill } {
  const { i18n } = useTranslation();
  return { s: i18n.language?.startsWith('zh') ? zh : en, f: fill };
}
