import * as Tooltip from '@radix-ui/react-tooltip';
import type { ReactElement } from 'react';

/** A tooltip on any focusable child (Radix Tooltip). */
export function Tip({ text, children }: { text: string; children: ReactElement }): React.JSX.Element {
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content className="tooltip" sideOffset={6}>
          {text}
          <Tooltip.Arrow className="tooltip-arrow" />
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}
