import { THEMES, type Theme } from '../../../shared/contract/settings';

const THEME_KEY = 'reelsync.theme';

/** Light or dark on <html> (styles/base.css reads it through color-scheme); none: follow the system. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage refused: the saved setting still applies once it is read.
  }
}

/** The theme last applied in this profile, to paint the first frame right before the settings are read. */
export function lastTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return THEMES.find((t) => t === stored) ?? 'system';
  } catch {
    return 'system';
  }
}
