/** The theme switch in the page header: system, light or dark, remembered across reloads. */
import { useState } from 'react';
import { THEME_PREFERENCES, readThemePreference, saveThemePreference, type ThemePreference } from './theme-preference.ts';
import '../shared/theme.css';

const LABELS: Record<ThemePreference, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** A labelled select; changing it applies the theme at once and saves it. */
export function ThemeSwitch() {
  const [preference, setPreference] = useState(readThemePreference);
  return (
    <label className="ss-theme-switch">
      Theme
      <select
        className="ss-select"
        value={preference}
        onChange={(event) => {
          const next = event.target.value as ThemePreference;
          setPreference(next);
          saveThemePreference(next);
        }}
      >
        {THEME_PREFERENCES.map((p) => (
          <option key={p} value={p}>
            {LABELS[p]}
          </option>
        ))}
      </select>
    </label>
  );
}
