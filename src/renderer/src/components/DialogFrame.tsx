import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

type ContentHandlers = Pick<Dialog.DialogContentProps, 'onKeyDown' | 'onOpenAutoFocus' | 'onCloseAutoFocus'>;

export interface DialogFrameProps extends ContentHandlers {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Classes beside `dialog`: its width (`narrow`) or its own layout. */
  className: string;
  testId?: string;
  /** The button that opens the dialog, when it sits where the dialog is declared. */
  trigger?: ReactNode;
  /** The corner close button's accessible name. */
  closeLabel?: string;
  children?: ReactNode;
}

/**
 * Every dialog's frame (Radix Dialog: focus kept inside, Escape closes): the dimmed overlay, the titled panel and
 * its corner close button. What the dialog says and asks goes between title and close button.
 */
export function DialogFrame({
  open,
  onOpenChange,
  title,
  className,
  testId,
  trigger,
  closeLabel = 'Close',
  children,
  ...handlers
}: DialogFrameProps): React.JSX.Element {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>}
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className={`dialog ${className}`}
          aria-describedby={undefined}
          data-testid={testId}
          {...handlers}
        >
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          {children}
          <Dialog.Close className="icon-button dialog-close" aria-label={closeLabel}>
            <X size={14} />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
