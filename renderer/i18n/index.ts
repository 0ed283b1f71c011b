import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.js';
import { zh } from './zh.js';

export const LOCALES = ['en', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];
const STORAGE_KEY = 'memdesk.locale';

/** The person's choice if they made one, else the OS/browser language (Electron passes the OS locale). */
export function detectLocale(stored: string | null, languages: readonly string[]): Locale {
  if (stored === 'en' || stored === 'zh') return stored;
  for (const lang of languages) {
    const l = lang.toLowerCase();
    if (l.startsWith('zh')) return 'zh';
    if (l.startsWith('en')) return 'en';
  }
  return 'en';
}

function storedLocale(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null; // storage refused (disabled, private mode): go by the browser's languages
  }
}

export async function initI18n(): Promise<typeof i18next> {
  const nav = globalThis.navigator;
  const lng = detectLocale(
    storedLocale(),
    nav ? (nav.languages?.length ? nav.languages : [nav.language]) : [],
  );
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources: { en: { translation: en }, zh: { translation: zh } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = lng === 'zh' ? 'zh-CN' : 'en';
  return i18next;
}

export async function switchLocale(lng: Locale): Promise<void> {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lng);
  } catch {
    /* not persisted in private mode */
  }
  await i18next.changeLanguage(lng);
  document.documentElement.lang = lng === 'zh' ? 'zh-CN' : 'en';
}
