import type { z } from 'zod';
import type { Result } from './errors';
import { appChannels, appEvents } from './contract/app';
import { syncChannels, syncEvents } from './contract/sync';
import { libraryChannels } from './contract/library';
import { settingsChannels, settingsEvents } from './contract/settings';
import { clipsChannels, clipsEvents } from './contract/clips';
import { connectivityChannels, connectivityEvents } from './contract/connectivity';
import { downloadsChannels, downloadsEvents } from './contract/downloads';
import { lastResultsChannels } from './contract/last-results';
import { desktopChannels } from './contract/desktop';
import { serviceChannels, serviceEvents } from './contract/service';
import { semanticChannels } from './contract/semantic';
import { browseChannels } from './contract/browse';

/**
 * The one IPC contract between main and renderer: channel -> request schema and response schema,
 * plus events main -> renderer. Each feature contributes its own map, merged here.
 */
export const channels = {
  ...appChannels,
  ...syncChannels,
  ...libraryChannels,
  ...settingsChannels,
  ...clipsChannels,
  ...downloadsChannels,
  ...lastResultsChannels,
  ...connectivityChannels,
  ...desktopChannels,
  ...serviceChannels,
  ...semanticChannels,
  ...browseChannels,
} as const;

export const events = {
  ...appEvents,
  ...syncEvents,
  ...settingsEvents,
  ...clipsEvents,
  ...downloadsEvents,
  ...connectivityEvents,
  ...serviceEvents,
} as const;

export type Channels = typeof channels;
export type Channel = keyof Channels;
export type Req<C extends Channel> = z.input<Channels[C]['req']>;
export type ReqParsed<C extends Channel> = z.output<Channels[C]['req']>;
export type Res<C extends Channel> = z.output<Channels[C]['res']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const channelNames = Object.keys(channels) as Channel[];
export const eventNames = Object.keys(events) as EventName[];

export function isChannel(name: string): name is Channel {
  return Object.prototype.hasOwnProperty.call(channels, name);
}

/** What the preload (Electron) or the web shim exposes on `window.reelsync`: one function per channel. */
export type ReelsyncBridge = {
  call: { [C in Channel]: (req: Req<C>) => Promise<Result<Res<C>>> };
  on: <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => () => void;
};

/** How many dropped files the desktop bridge resolves at most per drop. */
export const MAX_DROPPED_FILES = 1000;

/**
 * The preload's bridge: the contract plus one function outside the channel map. Where a dropped File lives on disk is
 * known only inside the renderer process (Electron's webUtils.getPathForFile), so main cannot answer it over a
 * channel; the paths it gives go to main through sync:add-paths like any other, and main checks them there.
 * A browser has no such function: it never tells a page where a dropped file lives.
 */
export type ReelsyncDesktopBridge = ReelsyncBridge & {
  /** The disk path of each dropped file or folder, in order; files that have none (made in the page) are left out. */
  pathsForDroppedFiles: (files: readonly File[]) => string[];
};
