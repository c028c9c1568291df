import { plainReason } from '../../../shared/plain-reasons';
import './reason-line.css';

/**
 * The plain reason on one line; the whole sentence and the raw cause (an ffmpeg message, an errno) under "Details".
 * `info`: the reason says what is being done ("Making a small search proxy…", "Waiting for room…"), not what failed,
 * and does not look like an error.
 */
export function ReasonLine({
  reason,
  details,
  tone = 'error',
}: {
  reason: string;
  details: string | null;
  tone?: 'error' | 'info';
}): React.JSX.Element {
  return (
    <span className="reason-line" data-tone={tone}>
      <span className="reason" data-testid="file-reason" title={reason}>
        {reason}
      </span>
      {details && (
        <details className="reason-details" data-testid="file-reason-details">
          <summary>Details</summary>
          <div className="reason-details-panel">
            <p>{reason}</p>
            <code className="mono">{details}</code>
          </div>
        </details>
      )}
    </span>
  );
}

/** A raw failure text (an API error, an errno) as its plain sentence, the raw text under "Details". */
export function PlainError({ raw }: { raw: string }): React.JSX.Element {
  const plain = plainReason(raw);
  return <ReasonLine reason={plain.text} details={plain.details} />;
}
