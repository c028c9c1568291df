import { createContext, useContext } from 'react';

export interface ToastMessage {
  title: string;
  body?: string;
  tone?: 'ok' | 'bad' | 'info';
  /** How long it stays (Radix's default of the provider otherwise). */
  durationMs?: number;
  /** One button that acts, e.g. Undo; `altText` says how to do the same without the toast (screen readers). */
  action?: { label: string; altText: string; run: () => void; testId?: string };
}

export const ToastContext = createContext<(t: ToastMessage) => void>(() => undefined);

export function useToast(): (t: ToastMessage) => void {
  return useContext(ToastContext);
}
