import type { NativeTheme } from 'electron';
import type { Theme } from '../../shared/contract/settings';
import { unreachable } from '../../shared/errors';
import type { EventBus } from '../events';

type ThemeSource = NativeTheme['themeSource'];

function themeSourceOf(theme: Theme): ThemeSource {
  switch (theme) {
    case 'system':
      return 'system';
    case 'light':
      return 'light';
    case 'dark':
      return 'dark';
    default:
      throw unreachable(theme);
  }
}

/**
 * The theme setting also drives Electron's nativeTheme, so the window chrome, menus, scrollbars and native form
 * controls follow it (the page's CSS alone cannot restyle them): applied now and on every settings change.
 */
export function followThemeSetting(
  nativeTheme: Pick<NativeTheme, 'themeSource'>,
  current: Theme,
  events: Pick<EventBus, 'on'>,
): () => void {
  const apply = (theme: Theme): void => {
    const source = themeSourceOf(theme);
    if (nativeTheme.themeSource !== source) nativeTheme.themeSource = source;
  };
  apply(current);
  return events.on('settings:changed', (view) => apply(view.theme));
}
