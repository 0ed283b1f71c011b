import { useTranslation } from 'react-i18next';

/** The export / import section's strings (English and Chinese like the rest). */
const en = {
  title: 'Export and import notes',
  intro:
    'A zip of every note file of a scope, byte for byte; importing writes notes whose id is free and reports the rest. You pick the file.',
  scope: 'Scope',
  project: 'this project',
  user: 'your notes',
  onCollision: 'When an id is taken',
  skip: 'keep the existing note',
  keepBoth: 'keep both (new id)',
  export: 'Export…',
  import: 'Import…',
  working: 'Working…',
  cancelled: 'Nothing done: no file was chosen.',
  exported: 'Exported {{notes}} notes to {{file}}.',
  imported: 'From {{file}}: {{imported}} imported, {{skipped}} skipped, {{refused}} refused.',
};

const zh: typeof en = {
  title: '导出与导入笔记',
  intro: '将某一范围的全部笔记文件逐字节打包为 zip；导入时写入 id 未被占用的笔记，其余逐条说明。文件由你选择。',
  scope: '范围',
  project: '本项目',
  user: '你的笔记',
  onCollision: 'id 已被占用时',
  skip: '保留现有笔记',
  keepBoth: '两者都保留（新 id）',
  export: '导出…',
  import: '导入…',
  working: '处理中…',
  cancelled: '未执行：没有选择文件。',
  exported: '已导出 {{notes}} 条笔记到 {{file}}。',
  imported: '来自 {{file}}：导入 {{imported}} 条，跳过 {{skipped}} 条，拒绝 {{refused}} 条。',
};

export function useArchiveStrings(): typeof en {
  const { i18n } = useTranslation();
  return i18n.language?.startsWith('zh') ? zh : en;
}
