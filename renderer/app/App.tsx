import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useApiClient } from '../api/context.js';
import { useDeferredApiQuery } from '../api/queries.js';
import { LabelledSelect } from '../components/LabelledSelect.js';
import { mergeWarnings, WarningsBar } from '../components/WarningsBar.js';
import { Toasts } from '../components/Toasts.js';
import { switchLocale, type Locale } from '../i18n/index.js';
import { editorStore } from '../state/editor-store.js';
import { firstListStore } from '../state/first-list.js';
import { uiStore, useUi, type ThemeChoice } from '../state/ui-store.js';
import { runCommand, runCommandOnceReady } from './commands.js';
import { QuickSwitcher } from './QuickSwitcher.js';
import { StatusBar } from './StatusBar.js';
import { HEADER_SLOTS, TABS, type TabDef } from './tabs.js';
import { useTheme } from './useTheme.js';

function TabButton({ tab, active, onSelect }: { tab: TabDef; active: boolean; onSelect: () => void }) {
  const { t } = useTranslation();
  const badge = tab.useBadge?.() ?? null;
  return (
    <button
      type="button"
      role="tab"
      id={`tab-${tab.id}`}
      aria-selected={active}
      aria-controls={`panel-${tab.id}`}
      tabIndex={active ? 0 : -1}
      className={active ? 'tab active' : 'tab'}
      onClick={onSelect}
      data-testid={`tab-${tab.id}`}
    >
      {t(tab.labelKey)}
      {badge ? <span className="tab-badge">{badge}</span> : null}
    </button>
  );
}

/** Find and New note belong to the Memory page: opened first when another tab shows. */
function openOnMemoryPage(cmd: 'find' | 'note.new'): void {
  uiStore.getState().setActiveTab('memory');
  runCommandOnceReady(cmd);
}

export function App() {
  const { t, i18n } = useTranslation();
  const client = useApiClient();
  const qc = useQueryClient();
  const activeTab = useUi((s) => s.activeTab);
  const theme = useUi((s) => s.theme);
  const [connected, setConnected] = useState(true);
  // Warnings change without a note changing (a malformed file appears): also refetch now and then.
  const status = useDeferredApiQuery('app.status', {}, { refetchInterval: 60_000 });
  useTheme(theme);
  // Opened on another tab than Memory: there is no list to wait for.
  useEffect(() => {
    if (activeTab !== 'memory') firstListStore.getState().markShown();
  }, [activeTab]);

  useEffect(
    () =>
      client.onMenuCommand((cmd) => {
        if (cmd === 'project.changed') {
          // Another project was opened in the desktop app: everything on screen is stale.
          editorStore.getState().close();
          uiStore.getState().select(null);
          void qc.invalidateQueries();
          return;
        }
        if (cmd === 'note.new' || cmd === 'find') openOnMemoryPage(cmd);
        else runCommand(cmd);
      }),
    [client, qc],
  );
  // The same keys as the desktop menu's accelerators, for the browser demo: on every tab.
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || !(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key !== 'f' && key !== 'n') return;
      e.preventDefault();
      openOnMemoryPage(key === 'f' ? 'find' : 'note.new');
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => client.onConnectionChange(setConnected), [client]);

  function onTabKey(e: React.KeyboardEvent) {
    const i = TABS.findIndex((tab) => tab.id === activeTab);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % TABS.length;
    if (e.key === 'ArrowLeft') next = (i - 1 + TABS.length) % TABS.length;
    if (e.key === 'Home') next = 0;
    if (e.key === 'End') next = TABS.length - 1;
    if (next >= 0) {
      e.preventDefault();
      const id = TABS[next]!.id;
      uiStore.getState().setActiveTab(id);
      document.getElementById(`tab-${id}`)?.focus();
    }
  }

  const project = status.data?.project;
  return (
    <div className="app">
      <header className="app-header">
        <h1 className="app-title">{t('app.title')}</h1>
        {project ? (
          <span className="project-root" title={project.root} data-testid="project-root" translate="no">
            {project.root.split(/[\\/]/).filter(Boolean).pop()}
          </span>
        ) : null}
        <nav role="tablist" aria-label={t('tabs.label')} className="tabs" onKeyDown={onTabKey}>
          {TABS.map((tab) => (
            <TabButton
              key={tab.id}
              tab={tab}
              active={tab.id === activeTab}
              onSelect={() => uiStore.getState().setActiveTab(tab.id)}
            />
          ))}
        </nav>
        <div className="header-controls">
          {HEADER_SLOTS.map((Slot, i) => (
            <Slot key={i} />
          ))}
          <LabelledSelect<Locale>
            label={t('app.language')}
            labelHidden
            value={i18n.language}
            onChange={(locale) => void switchLocale(locale)}
            options={[
              ['en', 'English'],
              ['zh', '中文'],
            ]}
            testId="locale"
          />
          <LabelledSelect<ThemeChoice>
            label={t('app.theme')}
            labelHidden
            value={theme}
            onChange={(choice) => uiStore.getState().setTheme(choice)}
            options={[
              ['system', t('app.themeSystem')],
              ['light', t('app.themeLight')],
              ['dark', t('app.themeDark')],
            ]}
            testId="theme"
          />
        </div>
      </header>
      {!connected ? (
        <div className="banner banner-warn" role="status">
          {t('app.reconnecting')}
        </div>
      ) : null}
      <WarningsBar warnings={mergeWarnings(status.data?.warnings)} />
      {TABS.map((tab) =>
        tab.id === activeTab ? (
          <main
            key={tab.id}
            role="tabpanel"
            id={`panel-${tab.id}`}
            aria-labelledby={`tab-${tab.id}`}
            className="tab-panel"
          >
            <tab.Component />
          </main>
        ) : null,
      )}
      <Toasts />
      <StatusBar />
      <QuickSwitcher />
    </div>
  );
}
