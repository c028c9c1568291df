import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { channelNames, type ReelsyncBridge } from '../shared/contract';
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
} satisfies ReelsyncBridge;

contextBridge.exposeInMainWorld('reelsync', bridge);
