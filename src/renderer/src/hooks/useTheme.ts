import { useEffect } from 'react';
import { applyTheme } from '../lib/theme';
import { useSettings } from './queries';

/** Keeps the page's theme on the saved setting (Settings › Appearance). */
export function useTheme(): void {
  const theme = useSettings().data?.theme;
  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
}
