import type { NativeImage, WebContents } from 'electron';
import type { DesktopHooks } from '../desktop/hooks';

export interface DesktopHost {
  contents(): Pick<WebContents, 'startDrag'> | null;
  imageFromPath(path: string): NativeImage;
  fallbackIcon(): NativeImage;
  showItemInFolder(path: string): void;
}

/** Drag-out (webContents.startDrag with the clip's still as the drag image) and reveal, for the app's clip channels. */
export function desktopHooks(host: DesktopHost): DesktopHooks {
  return {
    startDrag: (file, icon) => {
      const contents = host.contents();
      if (!contents) throw new Error('no window to drag from');
      const image = icon ? host.imageFromPath(icon) : null;
      contents.startDrag({ file, icon: image && !image.isEmpty() ? image.resize({ width: 96 }) : host.fallbackIcon() });
    },
    reveal: (file) => host.showItemInFolder(file),
  };
}
