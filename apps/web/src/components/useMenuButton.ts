import { type MouseEvent, useId, useState } from 'react';

/** The menu opens under its button, right edges aligned (for buttons at the right of a bar). */
export const MENU_RIGHT_ALIGNED = {
  anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
  transformOrigin: { vertical: 'top', horizontal: 'right' },
} as const;

/**
 * A button that opens a <Menu>: spread `buttonProps` on the button and `menuProps` on the menu
 * (which ties the two together for screen readers); an item calls `close()` before acting.
 */
export function useMenuButton() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const close = () => setAnchor(null);
  return {
    close,
    buttonProps: {
      'aria-haspopup': 'menu',
      'aria-controls': anchor ? menuId : undefined,
      'aria-expanded': anchor ? 'true' : undefined,
      onClick: (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
    },
    menuProps: { id: menuId, anchorEl: anchor, open: anchor !== null, onClose: close },
  } as const;
}
