import type { LucideIcon } from 'lucide-react';
import { AlertTriangle, Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { plainReason } from '../../../shared/plain-reasons';

/** Designed empty, loading and error states: never a blank pane. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  testId,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  testId?: string;
}): React.JSX.Element {
  return (
    <div className="empty-state" data-testid={testId}>
      <Icon size={40} strokeWidth={1.25} aria-hidden="true" />
      <h2>{title}</h2>
      {children && <div className="empty-body">{children}</div>}
    </div>
  );
}

export function LoadingState({ label }: { label: string }): React.JSX.Element {
  return (
    <div className="loading-state" role="status" aria-live="polite">
      <Loader2 className="spin" size={18} aria-hidden="true" />
      {label}
    </div>
  );
}

export function ErrorState({
  title,
  error,
  action,
}: {
  title: string;
  error: Error;
  action?: ReactNode;
}): React.JSX.Element {
  // A known raw cause (an errno, a socket error) gets its sentence; the app's own messages are already plain words.
  const plain = plainReason(error.message);
  const known = plain.cause !== 'unknown';
  return (
    <div className="callout error" role="alert">
      <AlertTriangle size={16} aria-hidden="true" />
      <div>
        <strong>{title}</strong>
        <div className="muted-on-error">{known ? plain.text : error.message}</div>
        {known && plain.details && (
          <details className="reason-details">
            <summary>Details</summary>
            <code className="mono reason-details-panel">{plain.details}</code>
          </details>
        )}
      </div>
      {action}
    </div>
  );
}
