import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { channelNames, MAX_DROPPED_FILES, type ReelsyncBridge, type ReelsyncDesktopBridge } from '../shared/contract';
import { eventChannel } from '../shared/ipc-names';

// One fixed function per contract channel: the renderer can reach nothing else (no raw ipcRenderer).
const call = Object.fromEntries(
  channelNames.map((channel) => [channel, (req: unknown) => ipcRenderer.invoke(channel, req)]),
) as ReelsyncBridge['call'];

const bridge = {
  call,
  on: (event, listener) => {
    const wrapped = (_e: IpcRendererEvent, payload: unknown): void => listener(payload as never);
    ipcRenderer.on(eventChannel(event), wrapped);
    return () => {
      ipcRenderer.off(eventChannel(event), wrapped);
    };
  },
  // Outside the channel map on purpose: only this renderer-side call can tell where a dropped File lives (see the type).
  pathsForDroppedFiles: (files) => {
    const list: readonly unknown[] = Array.isArray(files) ? files : [];
    const paths: string[] = [];
    for (const file of list.slice(0, MAX_DROPPED_FILES)) {
      try {
        // getPathForFile checks the type itself (it throws a TypeError for anything but a File).
        const path = webUtils.getPathForFile(file as File);
        if (typeof path === 'string' && path) paths.push(path);
      } catch {
        // not a File (the page passed something else): it has no path
      }
    }
    return paths;
  },
} satisfies ReelsyncDesktopBridge;

contextBridge.exposeInMainWorld('reelsync', bridge);
