import { createContext, useContext } from 'react';

export interface ToastMessage {
  title: string;
  body?: string;
  tone?: 'ok' | 'bad' | 'info';
}

export const ToastContext = createContext<(t: ToastMessage) => void>(() => undefined);

export function useToast(): (t: ToastMessage) => void {
  return useContext(ToastContext);
}
