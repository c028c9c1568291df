import { useEffect, useState } from 'react';
import { DialogFrame } from './DialogFrame';
import './shortcut-sheet.css';
import { typingIn } from '../lib/typing-in';

/** Every key the app answers, by where it works: what `?` shows. */
export const SHORTCUTS: { area: string; keys: [string, string][] }[] = [
  {
    area: 'Anywhere',
    keys: [
      ['/  or  Ctrl+K', 'Search'],
      ['?', 'This list'],
    ],
  },
  {
    area: 'Library',
    keys: [
      ['↑ ↓  Home End  Page Up/Down', 'Move between files'],
      ['Enter', 'Play the file'],
      ['Right-click  or  Shift+F10', 'Actions: play, show in folder, copy path, save clip, remove'],
    ],
  },
  {
    area: 'Search',
    keys: [
      ['Enter (in the field)', 'Search'],
      ['↓ (in the field)', 'Go to the results'],
      ['← → ↑ ↓', 'Move between results'],
      ['Enter', 'Open in the player'],
      ['Space', 'Preview; Space again closes it'],
      ['S', 'Save a clip'],
    ],
  },
  {
    area: 'Player',
    keys: [
      ['Space', 'Play or stop'],
      ['K', 'Stop'],
      ['J  /  L', 'Play backward / forward; again for faster'],
      ['K held + tap J / L', 'One frame back / forward'],
      ['K held + hold J / L', 'Play at ¼ speed'],
      ['← →  or  , .', 'One frame'],
      ['I  /  O', 'Mark in / out'],
      ['S', 'Save a clip'],
      ['M', 'Mute'],
      ['N  /  P', 'Next / previous hit in this video'],
      ['Esc', 'Back'],
    ],
  },
];

/** `?` (outside text fields and other dialogs) opens the list of shortcuts; Escape or `?` closes it. */
export function ShortcutSheet(): React.JSX.Element {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
      if (!open && document.querySelector('[role="dialog"]')) return;
      e.preventDefault();
      setOpen((o) => !o);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <DialogFrame
      open={open}
      onOpenChange={setOpen}
      title="Keyboard shortcuts"
      className="shortcut-sheet"
      testId="shortcut-sheet"
    >
      <div className="shortcut-areas">
        {SHORTCUTS.map((a) => (
          <section key={a.area}>
            <h3 className="section-title">{a.area}</h3>
            <dl className="shortcut-list">
              {a.keys.map(([keys, what]) => (
                <div key={keys} className="shortcut-row">
                  <dt>
                    <kbd>{keys}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </DialogFrame>
  );
}
