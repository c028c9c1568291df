import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { DialogFrame } from './DialogFrame';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** What the dialog says and asks between its title and its buttons. */
  children?: ReactNode;
  /** The button that opens the dialog, when it sits where the dialog is declared. */
  trigger?: ReactNode;
  /** The button that closes without doing anything ("Keep", "Close"). */
  cancelLabel: string;
  confirmLabel: ReactNode;
  /** `danger` for what deletes or removes. */
  tone: 'danger' | 'primary';
  onConfirm: () => void;
  confirmDisabled?: boolean;
  confirmTestId?: string;
  testId?: string;
  /** Where focus goes when the dialog closes (see returnFocusTo); by default back to what opened it. */
  onCloseAutoFocus?: (e: Event) => void;
}

/** Elements whose own Enter does something else (a button presses itself, a list picks, a text area breaks a line). */
const OWN_ENTER = 'button, a[href], textarea, select, [role="tab"], [role="combobox"], [role="option"]';

/**
 * The one dialog that asks before doing something: title, what it means, Cancel and the action. It opens with the
 * action focused; Enter anywhere but on another button confirms, Escape cancels, focus stays inside (Radix Dialog).
 */
export function ConfirmDialog(p: ConfirmDialogProps): React.JSX.Element {
  const confirmButton = useRef<HTMLButtonElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== 'Enter' || e.defaultPrevented || e.nativeEvent.isComposing || p.confirmDisabled) return;
    if (e.target instanceof Element && e.target.closest(OWN_ENTER)) return;
    e.preventDefault();
    p.onConfirm();
  };
  return (
    <DialogFrame
      open={p.open}
      onOpenChange={p.onOpenChange}
      title={p.title}
      trigger={p.trigger}
      className="narrow"
      testId={p.testId}
      onKeyDown={onKeyDown}
      onOpenAutoFocus={(e) => {
        const button = confirmButton.current;
        if (!button || button.disabled) return;
        e.preventDefault();
        button.focus();
      }}
      onCloseAutoFocus={p.onCloseAutoFocus}
    >
      {p.children}
      <div className="row">
        <span className="spacer" />
        <Dialog.Close className="button">{p.cancelLabel}</Dialog.Close>
        <button
          ref={confirmButton}
          type="button"
          className={`button ${p.tone}`}
          data-testid={p.confirmTestId}
          disabled={p.confirmDisabled}
          onClick={p.onConfirm}
        >
          {p.confirmLabel}
        </button>
      </div>
    </DialogFrame>
  );
}
