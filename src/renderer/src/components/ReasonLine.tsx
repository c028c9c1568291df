import { plainReason } from '../../../shared/plain-reasons';

/** The plain reason on one line; the whole sentence and the raw cause (an ffmpeg message, an errno) under "Details". */
export function ReasonLine({ reason, details }: { reason: string; details: string | null }): React.JSX.Element {
  return (
    <span className="reason-line">
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
