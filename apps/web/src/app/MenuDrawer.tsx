/**
 * The phone's menu drawer (below 768 px): the product name and the section menu, sliding in from the left. The
 * layout (AppLayout.tsx) loads this module when the menu is first opened, so a phone's first page downloads neither
 * antd's Drawer nor the menu (docs/web-bundle.md).
 */
import { Drawer } from 'antd';
import { Brand } from './Brand';
import { SideMenu } from './SideMenu';

/** Props: whether it is open, what closes it (a click outside, Escape, a section chosen), its width in px. */
export interface TMenuDrawerProps {
  open: boolean;
  onClose: () => void;
  widthPx: number;
}

/** The drawer with the section menu; choosing a section closes it. */
export default function MenuDrawer({ open, onClose, widthPx }: TMenuDrawerProps) {
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      size={widthPx}
      closable={false}
      styles={{ body: { padding: 0 } }}
      data-testid="menu-drawer"
    >
      <Brand />
      <SideMenu onNavigate={onClose} />
    </Drawer>
  );
}
