import * as Toast from '@radix-ui/react-toast';
import { useCallback, useState, type ReactNode } from 'react';
import { ToastContext, type ToastMessage } from '../hooks/useToast';

/** Radix toasts for outcomes and problems; children get `useToast()`. */
export function Toaster({ children }: { children: ReactNode }): React.JSX.Element {
  const [items, setItems] = useState<(ToastMessage & { id: number })[]>([]);
  const push = useCallback(
    (t: ToastMessage) => setItems((xs) => [...xs.slice(-3), { ...t, id: Date.now() + Math.random() }]),
    [],
  );
  return (
    <ToastContext.Provider value={push}>
      <Toast.Provider swipeDirection="right" duration={6000}>
        {children}
        {items.map((t) => (
          <Toast.Root
            key={t.id}
            className={`toast tone-${t.tone ?? 'info'}`}
            duration={t.durationMs}
            onOpenChange={(open) => {
              if (!open) setItems((xs) => xs.filter((x) => x.id !== t.id));
            }}
          >
            <Toast.Title className="toast-title">{t.title}</Toast.Title>
            {t.body && <Toast.Description className="toast-body">{t.body}</Toast.Description>}
            {t.action && (
              <Toast.Action
                className="button toast-action"
                altText={t.action.altText}
                data-testid={t.action.testId}
                onClick={t.action.run}
              >
                {t.action.label}
              </Toast.Action>
            )}
            <Toast.Close className="icon-button toast-close" aria-label="Dismiss">
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="toast-viewport" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}
