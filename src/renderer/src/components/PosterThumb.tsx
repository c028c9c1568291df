import { Film } from 'lucide-react';
import { useState } from 'react';
import { POSTER_FRAME, SPRITE_FRAMES } from '../../../shared/poster-sprite';
import { posterUrl } from '../transport';
import './poster-thumb.css';

/**
 * The file's own picture: one small cached JPEG sprite of SPRITE_FRAMES frames (main makes it once per file version),
 * showing the frame about a quarter in; moving the pointer across it scrubs through the others. An image, not a
 * <video>: it shows at once after a sort or a page change and costs no media request per row.
 */
export function PosterThumb({ path, playable }: { path: string; playable: boolean }): React.JSX.Element {
  const [failed, setFailed] = useState(false);
  const [frame, setFrame] = useState(POSTER_FRAME);
  if (!playable || failed) {
    return (
      <div className="poster-thumb poster-none" aria-hidden="true">
        <Film size={18} />
      </div>
    );
  }
  return (
    <div
      className="poster-thumb"
      onMouseMove={(e) => {
        const box = e.currentTarget.getBoundingClientRect();
        const at = Math.floor(((e.clientX - box.left) / Math.max(1, box.width)) * SPRITE_FRAMES);
        setFrame(Math.max(0, Math.min(SPRITE_FRAMES - 1, at)));
      }}
      onMouseLeave={() => setFrame(POSTER_FRAME)}
    >
      <img
        className="poster-sprite"
        src={posterUrl(path)}
        alt=""
        decoding="async"
        draggable={false}
        data-testid="poster"
        data-frame={frame}
        style={{ transform: `translateX(${(-100 * frame) / SPRITE_FRAMES}%)` }}
        onError={() => setFailed(true)}
      />
    </div>
  );
}
