import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';

/** The corner close button every dialog carries. */
export function DialogCloseButton(): React.JSX.Element {
  return (
    <Dialog.Close className="icon-button dialog-close" aria-label="Close">
      <X size={14} />
    </Dialog.Close>
  );
}
