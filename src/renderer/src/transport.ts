import type { Channel, Req, Res, ReelsyncBridge, ReelsyncDesktopBridge } from '../../shared/contract';
import { createWebBridge, webMediaUrl } from './web-bridge';

declare global {
  interface Window {
    reelsync?: ReelsyncDesktopBridge;
  }
}

/** The preload's bridge inside Electron, the HTTP+SSE shim in a plain browser. */
export const bridge: ReelsyncBridge = window.reelsync ?? createWebBridge();
export const transportKind: 'electron' | 'web' = window.reelsync ? 'electron' : 'web';

/** Where dropped files and folders live on disk: the desktop preload knows, a browser never says (so none). */
export function pathsForDroppedFiles(files: readonly File[]): string[] {
  return window.reelsync?.pathsForDroppedFiles(files) ?? [];
}

export class ContractError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Calls a channel and throws its error data, for react-query. */
export async function call<C extends Channel>(channel: C, req: Req<C>): Promise<Res<C>> {
  const result = await (
    bridge.call[channel] as (
      r: Req<C>,
    ) => Promise<{ ok: true; value: Res<C> } | { ok: false; error: { code: string; message: string } }>
  )(req);
  if (!result.ok) throw new ContractError(result.error.code, result.error.message);
  return result.value;
}

/** Where the player and the thumbnails load media from: the shell's custom protocol, or the web server. */
export function localMediaUrl(path: string): string {
  return transportKind === 'electron'
    ? `reelsync-media://file/?path=${encodeURIComponent(path)}`
    : webMediaUrl('file', { path });
}

/** A local file's thumbnail sprite (SPRITE_FRAMES frames side by side), from the same places as localMediaUrl. */
export function posterUrl(path: string): string {
  return transportKind === 'electron'
    ? `reelsync-media://poster/?path=${encodeURIComponent(path)}`
    : webMediaUrl('poster', { path });
}

export function keyframeUrl(bucket: string, blob: string): string {
  return transportKind === 'electron'
    ? `reelsync-media://keyframe/?bucket=${encodeURIComponent(bucket)}&blob=${encodeURIComponent(blob)}`
    : webMediaUrl('keyframe', { bucket, blob });
}
