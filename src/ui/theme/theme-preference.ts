/**
 * The colour theme a person chose (system, light or dark): remembered in localStorage and applied as
 * data-theme on <html>, which the tokens in ui/shared/theme.css read through color-scheme.
 * localStorage rather than the IndexedDB settings store: the choice must be known synchronously before
 * the first paint (no flash of the wrong theme), and clearing the corpus must not reset it.
 */

/** What the switch offers: follow the system's prefers-color-scheme, or pin one. */
export type ThemePreference = 'system' | 'light' | 'dark';

/** The switch's choices in the order shown. */
export const THEME_PREFERENCES: readonly ThemePreference[] = ['system', 'light', 'dark'];

const KEY = 'simsift-theme';

// The browser's bar colour per theme (the page background), for the pinned choices.
const BAR_COLOUR = { light: '#f6f7f9', dark: '#121518' } as const;

function isPreference(value: unknown): value is ThemePreference {
  return THEME_PREFERENCES.includes(value as ThemePreference);
}

/** The saved choice ('system' when none was saved, the value is unknown, or storage is unavailable). */
export function readThemePreference(): ThemePreference {
  try {
    const value = localStorage.getItem(KEY);
    return isPreference(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

/** Sets the page's theme: 'system' removes the pin, so the CSS follows prefers-color-scheme again. */
export function applyThemePreference(preference: ThemePreference, root: HTMLElement = document.documentElement): void {
  if (preference === 'system') delete root.dataset.theme;
  else root.dataset.theme = preference;
  // index.html has one theme-color per scheme; a pinned theme sets both to its own colour.
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    const scheme = meta.media.includes('dark') ? 'dark' : 'light';
    meta.content = BAR_COLOUR[preference === 'system' ? scheme : preference];
  }
}

/** Saves and applies a choice (a storage that refuses the write still changes the page). */
export function saveThemePreference(preference: ThemePreference): void {
  try {
    if (preference === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, preference);
  } catch {
    // Private modes may refuse storage: the choice then lasts until the page is closed.
  }
  applyThemePreference(preference);
}
